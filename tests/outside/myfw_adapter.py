"""A framework team's adapter kept in the team's own repository, for tests/test_outside.py: two
adapters on Parity's own engine stand in for a framework, one as it is and one whose matmul is off
by 0.1%, which the team's spec must catch."""
from adapters.engine import EngineAdapter


class MyFramework(EngineAdapter):
    name = "myfw"


class MyFrameworkOff(EngineAdapter):
    name = "myfw-off"

    def matmul(self, a, b):
        return super().matmul(a, b) * 1.001
