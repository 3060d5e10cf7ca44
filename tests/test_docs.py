"""The examples in the README and in module docstrings run as written."""

from __future__ import annotations

import doctest
import importlib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
MODULES = ["spec_impl", "spec_impl.transforms", "spec_impl.bulk.transforms"]


def test_readme_examples():
    result = doctest.testfile(str(ROOT / "README.md"), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0


@pytest.mark.parametrize("name", MODULES)
def test_module_examples(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module, extraglobs=vars(module), optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0
