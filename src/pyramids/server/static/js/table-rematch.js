// (being written: /work/spec/players.md)
