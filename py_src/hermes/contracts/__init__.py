"""The contracts between the rooms: typing only (Protocols, TypedDicts, Literals), read by the type checker
under CPython and never transpiled. Other modules import them inside a skip block, so the bundle holds
nothing of them (docs/ARCHITECTURE.md, "Contracts")."""
