#!/bin/bash
cd /work/main
PY=/work/main/.venv/bin/python
for rep in 1 2 3; do
  for side in before after; do
    echo "=== distributed $side rep$rep $(date +%T) load $(cut -d' ' -f1 /proc/loadavg)"
    (cd /tmp/$side && PYTHONPATH=/tmp/$side $PY benchmarks/distributed.py --steps 24 2>&1 | tail -8) > /tmp/speed/dist_${side}_$rep.txt 2>&1
  done
done
for rep in 1 2; do
  for side in before after; do
    echo "=== learner $side rep$rep $(date +%T) load $(cut -d' ' -f1 /proc/loadavg)"
    (cd /tmp/$side && PYTHONPATH=/tmp/$side $PY benchmarks/learner.py --skip-vllm --steps 10 2>&1 | tail -25) > /tmp/speed/learn_${side}_$rep.txt 2>&1
  done
done
echo DONE $(date +%T)
