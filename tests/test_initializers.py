"""The initializers' judge (suites/judging/sampling.py): a sample of its law passes, a sample of a
plausibly wrong law fails, and the statistical tests' false-alarm rate is what they state."""
import math

import numpy as np
import pytest
from scipy import integrate, stats

from adapters.engine import EngineAdapter
from adapters.reference import ReferenceAdapter
from adapters.reference.initializers import Law, normal, trunc_normal, uniform
from engine import init
from engine.tensor import Tensor
from suites.judging import judge, sampling
from suites.programs.context import Context
from tests.spec_text import first_spec

REFERENCE = ReferenceAdapter()


def law_of(op, shape, **params) -> Law:
    return getattr(REFERENCE, op)(np.zeros(shape), 0, **params)


def engine_draw(fn, shape, dtype="float32", seed=0, **params):
    return fn(Tensor(np.empty(shape, dtype)), **params, generator=np.random.default_rng(seed)).data


@pytest.mark.parametrize("op, fn, params", [
    ("init_xavier_uniform", init.xavier_uniform_, {}),
    ("init_xavier_normal", init.xavier_normal_, {"truncated": True}),
    ("init_kaiming_uniform", init.kaiming_uniform_, {"a": math.sqrt(5)}),
    ("init_kaiming_normal", init.kaiming_normal_, {"mode": "fan_out", "nonlinearity": "relu"}),
    ("init_lecun_normal", init.lecun_normal_, {}),
    ("init_orthogonal", init.orthogonal_, {"gain": 2.0}),
])
@pytest.mark.parametrize("shape", [(256, 128), (64, 32, 3, 3), (3, 40), (1, 1)])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_a_sample_of_its_law_passes(op, fn, params, shape, dtype):
    result = sampling.judged(law_of(op, shape, **params), engine_draw(fn, shape, dtype, **params), dtype, dtype)
    assert result.ok, result.summary()


def scaled(factor):
    return lambda x: x * factor


def without_the_sign_fix(shape):
    q, _ = np.linalg.qr(np.random.default_rng(0).standard_normal(shape))
    return q


# a wrong sample, the law it claims, and what the judge must name
WRONG = {
    "variance 5% high": (lambda: scaled(math.sqrt(1.05))(engine_draw(init.normal_, (256, 256))),
                         normal((256, 256), 1.0), "variance z"),
    "mean 0.03 standard deviations off": (lambda: engine_draw(init.normal_, (256, 256), mean=0.03),
                                          normal((256, 256), 1.0), "mean z"),
    "untruncated for truncated": (lambda: engine_draw(init.xavier_normal_, (256, 128)),
                                  law_of("init_xavier_normal", (256, 128), truncated=True), "outside the support"),
    "truncated for untruncated": (lambda: engine_draw(init.xavier_normal_, (64, 32, 3, 3), truncated=True),
                                  law_of("init_xavier_normal", (64, 32, 3, 3)), "fourth moment z"),
    "bound 1% wide": (lambda: scaled(1.01)(engine_draw(init.xavier_uniform_, (256, 128))),
                      law_of("init_xavier_uniform", (256, 128)), "outside the support"),
    "fan_out for fan_in": (lambda: engine_draw(init.kaiming_uniform_, (256, 128), mode="fan_out"),
                           law_of("init_kaiming_uniform", (256, 128)), "Kolmogorov-Smirnov D"),
    "truncated at other bounds": (lambda: engine_draw(init.trunc_normal_, (256, 256), a=-2.1, b=2.1),
                                  trunc_normal((256, 256), 0.0, 1.0, -2.0, 2.0), "outside the support"),
    "uniform for normal of its variance": (lambda: engine_draw(init.uniform_, (256, 256), a=-3 ** 0.5, b=3 ** 0.5),
                                           normal((256, 256), 1.0), "Kolmogorov-Smirnov D"),
    "QR without the sign fix": (lambda: without_the_sign_fix((256, 256)), law_of("init_orthogonal", (256, 256)),
                                "trace z"),
    "gaussian for orthogonal": (lambda: engine_draw(init.normal_, (64, 64), std=1 / 8),
                                law_of("init_orthogonal", (64, 64)), "not orthonormal"),
    "a one among zeros": (lambda: np.eye(1, 12).reshape(4, 3), law_of("init_zeros", (4, 3)), "element (0, 0)"),
}


@pytest.mark.parametrize("wrong", WRONG)
def test_a_sample_of_a_wrong_law_fails_and_says_why(wrong):
    sample, law, named = WRONG[wrong]
    result = sampling.judged(law, sample().astype(np.float32), "float32", "float32")
    assert not result.ok and named in result.reason, result.summary()


def test_shape_and_dtype_come_first():
    law = law_of("init_xavier_uniform", (4, 3))
    assert "shape" in sampling.judged(law, np.zeros((3, 4), np.float32), "float32", "float32").reason
    assert "dtype" in sampling.judged(law, np.zeros((4, 3), np.float64), "float32", "float64").reason


@pytest.mark.parametrize("law", [uniform((10000,), -1.0, 3.0), normal((10000,), 0.5), normal((10000,), 2.0, True)],
                         ids=lambda law: law.name)
def test_each_test_rejects_a_sample_of_its_law_as_often_as_it_states(law):
    """Under the law, each test's p-values are uniform: over 300 seeds, the share below 0.1 lies
    in 0.1 -+ 4.9 binomial standard deviations (a false alarm of this test: about 1e-6), so a
    standard error off by a factor of 2 (a share of 0.4) or a p-value that never falls fails."""
    draws = [law.dist.rvs(size=law.shape, random_state=np.random.default_rng(seed)) for seed in range(300)]
    p_values = np.array([[p for _, _, p in sampling.statistics(law, x)] for x in draws])
    assert p_values.shape[1] == 4  # Kolmogorov-Smirnov, mean, variance, fourth moment
    share = (p_values < 0.1).mean(axis=0)
    spread = 4.9 * math.sqrt(0.1 * 0.9 / len(draws))
    assert (abs(share - 0.1) < spread).all(), share


def test_the_reference_as_an_adapter_draws_from_its_law():
    out = REFERENCE.init_normal(np.zeros((256, 256), np.float32), 7, std=0.5)
    sample = REFERENCE.to_numpy(out)
    assert REFERENCE.dtype_of(out) == "float32" and sample.dtype == np.float32
    assert sampling.judged(normal((256, 256), 0.5), sample, "float32", "float32").ok
    again = REFERENCE.to_numpy(REFERENCE.init_normal(np.zeros((256, 256), np.float32), 7, std=0.5))
    assert np.array_equal(sample, again)  # seeded: the same draws


def test_keras_torchs_truncated_normal_is_the_law_its_algorithm_draws():
    """keras' torch backend keeps the first of four draws within two standard deviations, else
    the first draw (adapters/keras/initializers.py): FIRST_OF_FOUR is that law, and a draw beyond
    the truncation is within its support but outside the truncated normal's."""
    from adapters.keras.initializers import FIRST_OF_FOUR

    draws = np.random.default_rng(0).standard_normal((100_000, 4))
    kept = draws[np.arange(len(draws)), np.argmax(np.abs(draws) < 2, axis=1)]  # none within: index 0
    law = Law(kept.shape, "first of four", FIRST_OF_FOUR())
    assert sampling.judged(law, kept, "float64", "float64").ok
    assert math.isclose(FIRST_OF_FOUR.cdf(2.0) - FIRST_OF_FOUR.cdf(-2.0), 1 - FIRST_OF_FOUR.q)
    tails = 1 + 4 * stats.norm.pdf(2) / (2 * stats.norm.cdf(-2))  # E[z^2 | |z| > 2]
    variance = (1 - FIRST_OF_FOUR.q) * stats.truncnorm(-2, 2).var() + FIRST_OF_FOUR.q * tails
    second = integrate.quad(lambda z: z * z * FIRST_OF_FOUR.pdf(z), -40, 40, points=[-2, 2])[0]
    assert math.isclose(second, variance, rel_tol=1e-9)
    beyond = np.where(np.arange(100_000) == 7, 2.5, kept)
    assert sampling.judged(law, beyond, "float64", "float64").ok
    assert "outside the support" in sampling.judged(trunc_normal(kept.shape, 0, 1, -2, 2), beyond, "float64",
                                                    "float64").reason


def test_a_layers_parts_are_judged_each_against_its_law():
    """init_linear's weight and bias: the engine's (torch's rule) pass; a bias of zeros (Keras'
    and flax's) fails, and the judge names the part."""
    weight, bias = init.linear(128, 256, "float32", np.random.default_rng(0))
    laws = law_of("init_linear", (256, 128))
    names = ("weight", "bias")
    assert sampling.judged_parts(laws, [weight.data, bias.data], "float32", "float32", names).ok
    wrong = sampling.judged_parts(laws, [weight.data, np.zeros(256, np.float32)], "float32", "float32", names)
    assert not wrong.ok and wrong.reason.startswith("bias: not a sample of U(-0.0883883, 0.0883883)"), wrong.reason
    assert "1 parts, expected 2" in sampling.judged_parts(laws, [weight.data], "float32", "float32", names).reason


def recurrent_sample(per_gate: bool, forget_ones: bool, hidden=32, inputs=16, seed=0):
    """Keras' LSTM (one orthogonal [4 hidden, hidden] recurrent matrix, the forget bias ones) or,
    per_gate, flax's (an orthogonal block per gate), drawn with NumPy in torch's layout."""
    from adapters.reference.initializers import Orthogonal

    rng = np.random.default_rng(seed)
    square = Orthogonal((hidden, hidden), "Haar")
    recurrent = np.concatenate([square.sampled(rng) for _ in range(4)]) if per_gate else \
        Orthogonal((4 * hidden, hidden), "Haar").sampled(rng)
    bias = np.zeros(4 * hidden)
    bias[hidden:2 * hidden] = 1.0 if forget_ones else 0.0
    bound = math.sqrt(6 / (inputs + 4 * hidden))
    return [rng.uniform(-bound, bound, (4 * hidden, inputs)), recurrent, bias, np.zeros(4 * hidden)]


def test_a_recurrent_layers_gates_are_judged_block_by_block():
    """Keras' LSTM law (adapters/keras/initializers.py): its own sample passes; flax's recurrent
    kernel (an orthogonal block per gate: its columns have norm 2 as a whole) and a forget bias
    left at zeros (unit_forget_bias=False) fail, and the judge names the part and the rows."""
    from adapters.keras.initializers import KERAS_LAYER_DEFAULTS

    model = next(b.model for b in KERAS_LAYER_DEFAULTS if b.op == "init_lstm")
    laws, names = model(np.zeros((128, 16)), 0), ("weight_ih_l0", "weight_hh_l0", "bias_ih_l0", "bias_hh_l0")
    assert sampling.judged_parts(laws, recurrent_sample(False, True), "float64", None, names).ok
    per_gate = sampling.judged_parts(laws, recurrent_sample(True, True), "float64", None, names)
    assert not per_gate.ok and per_gate.reason.startswith("weight_hh_l0: not a sample of 1 x Haar orthogonal: its "
                                                          "columns are not orthonormal"), per_gate.reason
    zero_forget = sampling.judged_parts(laws, recurrent_sample(False, False), "float64", None, names)
    assert not zero_forget.ok and zero_forget.reason.startswith("bias_ih_l0: rows 32:64: not a sample of 1"), \
        zero_forget.reason


def test_flax_recurrent_law_stacks_an_orthogonal_block_per_gate():
    """flax's LSTMCell law: a per-gate sample passes, Keras' whole orthogonal matrix fails (its
    blocks are not orthogonal one by one)."""
    from adapters.jax.initializers import FLAX_LAYER_DEFAULTS

    model = next(b.model for b in FLAX_LAYER_DEFAULTS if b.op == "init_lstm")
    recurrent = model(np.zeros((128, 16)), 0)[1]
    assert sampling.judged(recurrent, recurrent_sample(True, False)[1], "float64", None).ok
    whole = sampling.judged(recurrent, recurrent_sample(False, False)[1], "float64", None)
    assert not whole.ok and whole.reason.startswith("rows 0:32: not a sample of 1 x Haar orthogonal"), whole.reason


@pytest.mark.parametrize("op, shape", [("init_lstm", (10, 3)), ("init_gru", (8, 3)), ("init_lstm", (8,))])
def test_a_recurrent_weight_shape_must_stack_its_gates(op, shape):
    with pytest.raises(ValueError, match=r"weight_ih is \[\d x hidden, in\]"):
        law_of(op, shape)


def test_parts_handed_one_sample_are_not_independent_draws():
    """Two parameters each a fine sample of its law, but the same draws (a recurrent layer's two
    biases from one call, or a scaled copy): each passed alone; judged against each other they
    fail and the judge names both. Independent draws of the same law pass."""
    rng = np.random.default_rng(1)
    law = uniform((512,), -0.1, 0.1)
    a, b = rng.uniform(-0.1, 0.1, 512), rng.uniform(-0.1, 0.1, 512)
    names = ("bias_ih", "bias_hh")
    assert sampling.judged_parts([law, law], [a, b], "float64", None, names).ok
    same = sampling.judged_parts([law, law], [a, a.copy()], "float64", None, names)
    assert not same.ok and same.reason == "bias_hh repeats bias_ih: their first 512 elements are the same draws"
    flipped = sampling.judged_parts([law, law], [a, -a], "float64", None, names)
    assert not flipped.ok and flipped.reason.startswith("bias_ih and bias_hh are not independent draws: r=-1")
    small = uniform((4,), -0.1, 0.1)  # too few elements for a correlation to mean anything: equality still shows
    assert not sampling.judged_parts([small, small], [a[:4], a[:4].copy()], "float64", None, names).ok


SEEDED = """\
- id: seeded
  op: init_uniform
  args: [w]
  params: {seed: 3, a: -1.0, b: 1.0}
  dtypes: [float64]
  examples:
    - {name: large, inputs: {w: {shape: [64, 64], fill: zeros}}}
"""


class UnseededEngine(EngineAdapter):
    """Draws from one generator made once: every call another sample, whatever its seed."""
    name = "unseeded-engine"
    generator = np.random.default_rng(0)

    def initialize(self, name, x, seed, params):
        return self.engine.Tensor(self.generator.uniform(params["a"], params["b"], x.data.shape))


class OneStreamEngine(EngineAdapter):
    """Ignores the seed: every seed the same sample."""
    name = "one-stream-engine"

    def initialize(self, name, x, seed, params):
        return super().initialize(name, x, 0, params)


@pytest.mark.parametrize("adapter, status, says", [
    (EngineAdapter(), "pass", "another seed draws an independent one"),
    (UnseededEngine(), "fail", "the same seed drew another sample on a second call (4096 of 4096 elements differ)"),
    (OneStreamEngine(), "fail", "(seed s + 1) repeats"),
])
def test_a_seed_repeats_its_sample_and_another_seed_draws_an_independent_one(tmp_path, adapter, status, says):
    spec = first_spec(tmp_path, SEEDED, "seeded.yaml")
    outcome = judge.check_case(Context(spec, adapter, "cpu", "float64"), "large",
                               {"w": np.zeros((64, 64))})
    assert outcome.status == status and says in outcome.message, outcome.message
