"""An adapter whose framework is not installed, for tests/test_registry.py."""
from adapters.base import Adapter


class AbsentFramework(Adapter):
    name = "absent-framework"
    module = "no_such_framework_here"
