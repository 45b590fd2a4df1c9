"""Three adapters that agree with each other and not with the reference (relu scaled by 1 + 1e-9,
far beyond float64's rounding): as if the oracle were the one off, for the suspect-oracle check
run as a run runs it (tests/test_suspect.py)."""
from adapters.reference import ReferenceAdapter


class AgreeingA(ReferenceAdapter):
    name = "agreeing-a"

    def relu(self, x):
        return super().relu(x) * (1 + 1e-9)


class AgreeingB(AgreeingA):
    name = "agreeing-b"


class AgreeingC(AgreeingA):
    name = "agreeing-c"
