"""Every rule of docs/RULES.md is named in the docstrings of the code that implements it.

Rules get stable IDs (FP-…, PF-…) so that code and tests can cite them; a rule that no
code cites is either not implemented or implemented without saying where.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RULE_ID = re.compile(r"\*\*((?:FP|PF)-[A-Z]+-\d+)\*\*")
RULES_PACKAGES = {"FP": "flaming", "PF": "flags"}


def docstrings(package: str) -> str:
    """Every docstring of a rules package (modules, classes, functions, attributes)."""
    texts: list[str] = []
    for path in sorted((ROOT / "src" / "pyramids" / package).rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            value = node.value if isinstance(node, ast.Expr) else None
            if isinstance(value, ast.Constant) and isinstance(value.value, str):
                texts.append(value.value)
    return "\n".join(texts)


def test_every_rule_id_is_cited_in_its_rules_package() -> None:
    """docs/RULES.md's IDs, FP in pyramids.flaming and PF in pyramids.flags."""
    ids = RULE_ID.findall((ROOT / "docs" / "RULES.md").read_text(encoding="utf-8"))
    assert len(ids) > 100, "the rule IDs were not found in docs/RULES.md"
    cited = {prefix: docstrings(package) for prefix, package in RULES_PACKAGES.items()}
    missing = [i for i in ids if not re.search(rf"\b{re.escape(i)}\b", cited[i[:2]])]
    assert not missing, f"rule IDs no docstring cites: {', '.join(missing)}"
