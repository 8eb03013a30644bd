// vector.similarity.cosine of two known pairs. Neo4j answers (1 + cos) / 2 and ArcadeDB raw cos
// (docs/backends.md §2.2); both are affine in cos, so these two points map either back to cosine.
// returns: one
RETURN vector.similarity.cosine([1.0, 0.0], [-1.0, 0.0]) AS opposite,
       vector.similarity.cosine([1.0, 0.0], [0.0, 1.0]) AS orthogonal
