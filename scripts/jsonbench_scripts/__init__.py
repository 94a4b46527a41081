"""Helpers shared by scripts/suite.py, scripts/compare and scripts/gate.py
(standard library only, so the gate runs with any python3)."""
