"""Anchor of the conformance suites.

conftest.py replaces this module with suites.items.SpecFile, which yields one test per
(spec, kind, adapter, device, dtype) from the YAML specs chosen with --spec (default specs/).
"""
