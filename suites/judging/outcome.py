"""What a check says about one case: an Outcome, before it becomes a record."""
import re
from dataclasses import dataclass, field

import numpy as np

from suites.judging import compare


@dataclass
class Outcome:
    status: str  # pass, documented, fail, unsupported, error (reports/records.py)
    case: str
    message: str = ""
    comparison: compare.Comparison | None = None
    inputs: dict = field(default_factory=dict)  # the exact inputs, for the repro
    actual: np.ndarray | None = field(default=None, repr=False)  # the adapter's value (cross-framework agreement)
    raised: Exception | None = field(default=None, repr=False)  # the framework's own error, for a difference
    difference: dict | None = None  # a documented outcome's note and source, for the report
    # a training check's steps: loss, the reference's loss there (suites/programs/training.py)
    trajectory: list | None = None
    # a compiled outcome's eager counterpart: its status, the distance (suites/judging/modes.py)
    eager: dict | None = None
    flaky: bool = False  # failed, then passed when hypothesis ran the same case again in this process


class NoGradient(Exception):
    """The framework returned no gradient (None) for these inputs: an observation, not zeros."""

    def __init__(self, names):
        super().__init__(f"no gradient: the framework returns None for {', '.join(f'd/d{n}' for n in names)}")
        self.names = list(names)


def gradients_of(grads: dict) -> dict:
    """The gradients as returned, NoGradient where the framework returned None for some."""
    missing = [n for n, g in grads.items() if g is None]
    if missing:
        raise NoGradient(missing)
    return grads


class InputChanged(Exception):
    """The adapter's call wrote into a tensor it was handed (an in-place op, `out=`, a donated
    buffer): a fail that names the argument, whatever the spec documents, since a user's training
    loop would read the changed value afterwards. The reference and finite differences never see
    it: each call gets copies of the inputs (Program.tensors)."""


def changed_inputs(adapter, tensors: dict, before: dict, call: str) -> None:
    """Raise InputChanged where a tensor handed to `call` no longer holds the bytes it held
    before it (`before`: handed(), taken when it was handed over)."""
    for name, was in before.items():
        try:
            now = _bytes(adapter, tensors[name])
        except Exception as exc:  # noqa: BLE001 - a buffer the call deleted (donated) reads as changed
            now = f"unreadable ({type(exc).__name__}: {str(exc)[:100]})"
        if now != was:
            what = now if isinstance(now, str) else "different values"
            raise InputChanged(f"the {call} changed its input {name} in place: after the call it holds {what} "
                               "(the result is judged on the inputs as they were handed over)")


def handed(adapter, tensors: dict) -> dict:
    """The bytes, dtype and shape of each tensor handed to the adapter, and of each Python list
    (from_python's obj: a framework could write into it too); Python numbers stay out."""
    return {name: _bytes(adapter, t) for name, t in tensors.items() if not isinstance(t, (bool, int, float, complex))}


def _bytes(adapter, tensor) -> tuple:
    value = np.asarray(tensor if isinstance(tensor, list) else adapter.to_numpy(tensor))
    return value.dtype.str, value.shape, value.tobytes()


class CaseFailure(Exception):
    """Raised inside hypothesis so that it shrinks the case; carries the Outcome."""

    def __init__(self, outcome: Outcome):
        super().__init__(outcome.message)
        self.outcome = outcome


UNDECLARED = "parity_undeclared"  # set on an error raised in a dtype its adapter does not declare (program.caller)


def raised_outcome(case: str, exc: BaseException, inputs: dict) -> "Outcome":
    """The framework's error as a case's outcome: "error", or "unsupported" where the op raised in
    a dtype its adapter does not declare for it (the framework lacks it: suites/coverage.undeclared),
    or "fail" where the call changed an input it was handed (InputChanged)."""
    chain, error = [], exc
    while error is not None and error not in chain:  # a compiler re-raises the op's error as its own
        chain.append(error)
        error = error.__cause__ or error.__context__
    changed = next((e for e in chain if isinstance(e, InputChanged)), None)
    if changed is not None:  # the adapter's bug, which no documented error stands for
        return Outcome("fail", case, str(changed), inputs=inputs)
    undeclared = next((getattr(e, UNDECLARED) for e in chain if getattr(e, UNDECLARED, None)), None)
    if undeclared:
        return Outcome("unsupported", case, undeclared, inputs=inputs, raised=exc)
    return Outcome("error", case, one_line(exc), inputs=inputs, raised=exc)


def one_line(exc: BaseException) -> str:
    """The exception's type and its message's first line (message_of)."""
    first = message_of(exc).splitlines()[:1]
    return f"{type(exc).__name__}: {first[0][:300] if first else ''}"


def message_of(exc: BaseException) -> str:
    """The exception's message; of an error raised inside a traced function (TensorFlow's "in
    user code:", the trace, then the error), the error's own last line. A Keras layer's wrapping
    ("Exception encountered when calling ...", then the error in bold, then "Arguments received
    by ...") gives way to the error it wraps."""
    message = str(exc).strip()
    if "Exception encountered when calling" in message:
        message = ANSI.sub("", message.split("Arguments received by")[0])
        message = "\n".join(line for line in message.splitlines()
                            if not line.strip().startswith("Exception encountered when calling")).strip()
    text = [line.strip() for line in message.splitlines() if line.strip()]
    if text and text[0] == "in user code:":
        return text[-1].split(": ", 1)[-1] if text[-1].startswith(f"{type(exc).__name__}:") else text[-1]
    if text and text[0] in ("In transformed code:", "In user code:"):  # paddle: the trace, the error, hints
        errors = [line for line in text if ERROR_LINE.match(line)]
        return errors[-1].split(": ", 1)[-1] if errors else text[-1]
    return message


ERROR_LINE = re.compile(r"^\w+(?:Error|Exception): ")  # "RuntimeError: ..." in a trace's text
ANSI = re.compile(r"\x1b\[[0-9;]*m")  # the terminal styles Keras puts around the error it wraps
