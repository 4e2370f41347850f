"""MathVerifier: the regression table (every comparison category, Math-Verify's known false positives), the
public contract (Verdict reasons and details, config validation, gold validation, registry, pickling)."""

from __future__ import annotations

import pickle
from pathlib import Path

import pytest
import yaml

from rlvr.core.errors import ConfigError, DataError
from rlvr.verifiers import VERIFIERS, MathVerifier, MathVerifierConfig, Verdict, make_verifier

CASES = yaml.safe_load((Path(__file__).parent / "data" / "math" / "cases.yaml").read_text())["cases"]
REASONS = {"correct", "wrong", "no_answer", "timeout", "unparsable_gold"}


def _id(case: dict) -> str:
    return f"{case['cat']}:{case['gold'][:20]}|{case['pred'][-24:]}"


@pytest.fixture(scope="module")
def in_process() -> MathVerifier:
    return MathVerifier(in_process=True)


def test_table_is_well_formed() -> None:
    assert len(CASES) >= 200
    assert {c["want"] for c in CASES} <= REASONS
    categories = {c["cat"] for c in CASES}
    for needed in (
        "extraction", "rational", "decimal", "symbolic", "radical", "constants", "factorial", "log", "complex",
        "degrees", "percent", "units", "thousands", "mixed", "fracs", "equation", "tuples_sets", "interval",
        "matrix", "choice", "text", "huge",
    ):  # fmt: skip
        assert needed in categories, needed
    cited = {c["src"].split(",")[0] for c in CASES if "src" in c}
    for issue in ("Math-Verify#14", "Math-Verify#41", "Math-Verify#60"):
        assert issue in cited


@pytest.mark.parametrize("case", CASES, ids=_id)
def test_regression_table(case: dict, in_process: MathVerifier) -> None:
    verdict = in_process.verify(case["pred"], case["gold"])
    assert verdict.reason == case["want"], dict(verdict.details)
    assert verdict.passed == (case["want"] == "correct")
    assert verdict.score == (1.0 if case["want"] == "correct" else 0.0)


def test_table_through_the_default_path() -> None:
    """Default config: fast stage here, sympy stage in killable workers (verify_batch and verify agree)."""
    verifier = MathVerifier()
    pairs = [(c["pred"], c["gold"]) for c in CASES]
    batch = verifier.verify_batch(pairs)
    assert [v.reason for v in batch] == [c["want"] for c in CASES]
    sympy_cases = [c for c in CASES if c["cat"] in ("symbolic", "radical")][:6]
    for case in sympy_cases:
        assert verifier.verify(case["pred"], case["gold"]).reason == case["want"]


def test_verdict_details() -> None:
    verdict = MathVerifier().verify(r"The answer is \boxed{\frac{1}{2}}", "0.5")
    assert isinstance(verdict, Verdict) and verdict.passed and verdict.reason == "correct"
    assert verdict.details["extracted"] == r"\frac{1}{2}"
    assert verdict.details["method"] == "boxed"
    assert verdict.details["parsed"] == "1/2"
    assert verdict.details["gold_parsed"] == "0.5"
    assert all(isinstance(v, str) for v in verdict.details.values())
    missing = MathVerifier().verify("no idea", "0.5")
    assert missing.reason == "no_answer" and not missing.passed


def test_non_string_inputs_do_not_raise() -> None:
    verifier = MathVerifier()
    assert verifier.verify(None, "1").reason == "no_answer"  # type: ignore[arg-type]
    assert verifier.verify(r"\boxed{3}", 3).passed  # an int gold is accepted
    assert verifier.verify(r"\boxed{1}", None).reason == "unparsable_gold"  # type: ignore[arg-type]
    assert verifier.verify(r"\boxed{" + "(" * 5000 + "}", "1").reason in ("wrong", "error")


def test_validate_reference() -> None:
    verifier = MathVerifier()
    verifier.validate_reference(r"\frac{1}{2}")
    verifier.validate_reference(r"\text{Monday}")
    for bad in ("", "   ", r"\frac{1}{", None):
        with pytest.raises(DataError, match="cannot be parsed"):
            verifier.validate_reference(bad)


@pytest.mark.parametrize(
    "kwargs, match",
    [
        ({"timeout_s": 0}, "timeout_s"),
        ({"timeout_s": float("inf")}, "timeout_s"),
        ({"num_workers": 0}, "num_workers"),
        ({"rel_tol": -1e-3}, "rel_tol"),
        ({"rel_tol": 0.7}, "rel_tol"),
        ({"min_significant_digits": 0}, "min_significant_digits"),
        ({"extraction": ("boxed", "guess")}, "extraction"),
        ({"extraction": ()}, "extraction"),
        ({"max_answer_chars": 0}, "max_answer_chars"),
        ({"gold_cache_size": -1}, "gold_cache_size"),
    ],
)
def test_config_rejects_impossible_settings(kwargs: dict, match: str) -> None:
    with pytest.raises(ConfigError, match=match):
        MathVerifierConfig(**kwargs)


def test_config_is_frozen_and_overridable() -> None:
    config = MathVerifierConfig(rel_tol=0.0)
    with pytest.raises(AttributeError):
        config.rel_tol = 1.0  # type: ignore[misc]
    verifier = MathVerifier(config, min_significant_digits=5)
    assert verifier.config.rel_tol == 0.0 and verifier.config.min_significant_digits == 5
    with pytest.raises(ConfigError, match="unknown MathVerifierConfig field"):
        MathVerifier(no_such_field=1)
    assert MathVerifierConfig(extraction=["boxed"]).extraction == ("boxed",)


def test_config_knobs_change_verdicts() -> None:
    strict = MathVerifier(in_process=True, min_significant_digits=5)
    assert not strict.verify(r"\boxed{3.14}", r"\pi").passed
    assert strict.verify(r"\boxed{3.1416}", r"\pi").passed
    assert not MathVerifier(in_process=True, percent=False).verify(r"\boxed{0.5}", r"50\%").passed
    assert (
        not MathVerifier(in_process=True, degrees=False).verify(r"\boxed{\frac{\pi}{6}}", r"30^\circ").passed
    )
    assert not MathVerifier(in_process=True, strip_units=False).verify(r"\boxed{5 \text{ cm}}", "5").passed
    boxed_only = MathVerifier(in_process=True, extraction=("boxed",))
    assert boxed_only.verify("#### 72", "72").reason == "no_answer"
    no_sympy = MathVerifier(symbolic=False)
    assert not no_sympy.verify(r"\boxed{\sqrt{8}}", r"2\sqrt{2}").passed  # needs a proof it cannot do
    assert no_sympy.verify(r"\boxed{(x+1)^2}", "x^2+2x+1").passed  # exact rational-function check


def test_registry_and_pickle() -> None:
    assert VERIFIERS.get("math") is MathVerifier
    built = make_verifier("math", rel_tol=0.0)
    assert isinstance(built, MathVerifier) and built.config.rel_tol == 0.0
    with pytest.raises(ConfigError):
        make_verifier("math", bogus=True)
    verifier = MathVerifier(timeout_s=3.0)
    verifier.verify(r"\boxed{1}", "1")  # populate the gold cache
    clone = pickle.loads(pickle.dumps(verifier))
    assert clone.config == verifier.config
    assert clone.verify(r"\boxed{\frac{2}{4}}", "0.5").passed


def test_gold_cache_is_bounded_and_used() -> None:
    verifier = MathVerifier(in_process=True, gold_cache_size=2)
    for gold in ("1", "2", "3"):
        verifier.verify(r"\boxed{1}", gold)
    assert list(verifier._gold_cache) == ["2", "3"]
    cached = verifier._gold("3")
    assert verifier._gold("3") is cached
