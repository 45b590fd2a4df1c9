"""Anchor of `pytest suites [--spec PATH]`.

conftest.py replaces this module with suites.running.items.SpecFile, which yields one test per
(spec, kind, adapter, device, dtype) from the YAML specs chosen with --spec (default specs/),
named <area>/<spec id>[...]. `pytest specs/` collects the spec files themselves instead.
"""
