//! The search tree: an arena of nodes, children keyed by deciding seat then action.
//!
//! Python's `_Node` keeps `children: dict[seat, dict[action, _Node]]`. Here each node keeps
//! one small list per seat (in the order the seats first decided there) of its children
//! sorted by action, found by binary search. Python's dict order is never observable in
//! the search: selection and expansion scan the *legal actions* in their order and look
//! children up by key, and the root statistics are reported in the order of `legal`.
//! What is observable, the number of children of a seat (the rank for the progressive
//! bias), is the list's length.

use pyramids_core::Action;

/// Index of a node in the arena.
pub type NodeId = u32;

/// The root's index.
pub const ROOT: NodeId = 0;

/// The children of one node decided by one seat (or chance), sorted by action.
#[derive(Clone, Debug, Default)]
struct SeatKids {
    seat: i32,
    actions: Vec<Action>,
    nodes: Vec<NodeId>,
}

/// A tree node: statistics of the edge into it and its children.
#[derive(Clone, Debug)]
pub struct Node {
    /// Times the edge into this node was walked (backed up; chance children on descent).
    pub visits: u64,
    /// Sum of the rewards of the seat that chose the edge into this node.
    pub total: f64,
    /// Visits of the parent in which this node's action was legal (starts at 1).
    pub avail: u64,
    /// Progressive bias of guided search: `bias / (rank + 1)` by order of expansion.
    pub bonus: f64,
    kids: Vec<SeatKids>,
}

impl Node {
    fn new(bonus: f64) -> Node {
        Node {
            visits: 0,
            total: 0.0,
            avail: 1,
            bonus,
            kids: Vec::new(),
        }
    }
}

/// Handle of one seat's children list of one node (`node.children[seat]`).
#[derive(Clone, Copy, Debug)]
pub struct Kids {
    node: NodeId,
    slot: usize,
}

/// The arena of one search.
#[derive(Clone, Debug)]
pub struct Tree {
    nodes: Vec<Node>,
}

impl Default for Tree {
    fn default() -> Self {
        Tree::new()
    }
}

impl Tree {
    /// A tree with only its root.
    pub fn new() -> Tree {
        Tree {
            nodes: vec![Node::new(0.0)],
        }
    }

    /// The node `id`.
    #[inline]
    pub fn node(&self, id: NodeId) -> &Node {
        &self.nodes[id as usize]
    }

    /// The node `id`, mutably.
    #[inline]
    pub fn node_mut(&mut self, id: NodeId) -> &mut Node {
        &mut self.nodes[id as usize]
    }

    /// Number of nodes.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Whether the tree has only its root (never: the root is always there).
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// `node.children.get(seat)`: the seat's children, if the seat ever decided there.
    #[inline]
    pub fn kids(&self, node: NodeId, seat: i32) -> Option<Kids> {
        let slot = self.node(node).kids.iter().position(|k| k.seat == seat)?;
        Some(Kids { node, slot })
    }

    /// `node.children.setdefault(seat, {})`.
    #[inline]
    pub fn kids_or_add(&mut self, node: NodeId, seat: i32) -> Kids {
        if let Some(k) = self.kids(node, seat) {
            return k;
        }
        let list = &mut self.node_mut(node).kids;
        list.push(SeatKids {
            seat,
            ..SeatKids::default()
        });
        Kids {
            node,
            slot: list.len() - 1,
        }
    }

    /// `kids.get(action)`.
    #[inline]
    pub fn child(&self, kids: Kids, action: Action) -> Option<NodeId> {
        let list = &self.node(kids.node).kids[kids.slot];
        list.actions
            .binary_search(&action)
            .ok()
            .map(|i| list.nodes[i])
    }

    /// `len(kids)`.
    #[inline]
    pub fn count(&self, kids: Kids) -> usize {
        self.node(kids.node).kids[kids.slot].actions.len()
    }

    /// `kids[action] = _Node(bonus)` for an action not yet there; the new node.
    pub fn add(&mut self, kids: Kids, action: Action, bonus: f64) -> NodeId {
        let id = self.nodes.len() as NodeId;
        self.nodes.push(Node::new(bonus));
        let list = &mut self.nodes[kids.node as usize].kids[kids.slot];
        let at = list.actions.binary_search(&action).unwrap_or_else(|i| i);
        list.actions.insert(at, action);
        list.nodes.insert(at, id);
        id
    }

    /// `kids.get(action)`, adding a node without bonus when absent (chance children).
    #[inline]
    pub fn child_or_add(&mut self, kids: Kids, action: Action) -> NodeId {
        match self.child(kids, action) {
            Some(id) => id,
            None => self.add(kids, action, 0.0),
        }
    }
}
