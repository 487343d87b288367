"""The package's version: a leaf module (it imports nothing), so that any module may
read it without importing the package's front (`crates_sim/__init__`), and pyproject.toml
reads it from here too (one place)."""

__version__ = "0.1.0"
