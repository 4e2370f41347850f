"""The code verifier: run a completion's program in the sandbox against tests, grade with partial credit.

    from rlvr.verifiers import CodeTests, CodeVerifier
    v = CodeVerifier()
    v.verify("```python\ndef add(a, b):\n    return a + b\n```", CodeTests.from_asserts(["assert add(1, 2) == 3"]))

How a functional test (HumanEval `check`, MBPP asserts) is decided, so that reward hacking does not pay:
the dataset's trusted test code never runs in the program's process. It runs in a judge process beside it,
in the same sandbox but under another uid. Each function under test is a proxy there: calling it sends the
(trusted) arguments to the program, which calls its own function and sends the result back as a plain
builtin value (`wire.py`: exact types, size- and depth-capped). The judge compares with its own unpatched
builtins and reports each test on a pipe the program does not hold. So an `__eq__` that always returns
True cannot cross the boundary, patched builtins stay in the program's process, exiting early (`sys.exit`,
`os._exit`) means no answers, printed "success" markers mean nothing, and it cannot signal, trace or write
to the judge. The expected values reach only the judge (the sandbox writes them to a pipe only the judge holds,
after the program's process exists), so no frame, object, memory, file or descriptor of the program holds
them. A candidate's StopIteration never acts as one in the test code, and a builtin's name the program defines
is the program's function (see `CodeTests.from_asserts`). IO tests compare stdout in the host.
"""

from rlvr.verifiers.code.extract import extract_program
from rlvr.verifiers.code.spec import CodeTests
from rlvr.verifiers.code.verifier import CodeVerifier, CodeVerifierConfig

__all__ = ["CodeTests", "CodeVerifier", "CodeVerifierConfig", "extract_program"]
