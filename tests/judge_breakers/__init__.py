"""Engines that exist only to break the judge and the runner (tests/test_judge_breakers.py); kept out
of the wheel, beside the tests that use them."""
