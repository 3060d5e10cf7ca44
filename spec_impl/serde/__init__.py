"""Appendix D single-value serialization: `binary` (bounds) and `json_value` (defaults, partition values)."""
