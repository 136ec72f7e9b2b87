"""fracas: run tabletop role-playing conflicts by the rules (unofficial)."""

__version__ = "0.1.0"
