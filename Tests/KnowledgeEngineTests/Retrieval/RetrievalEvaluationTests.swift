import Foundation
import Testing

@testable import KnowledgeEngine

struct RetrievalEvaluationTests {
  /// Hand-computed: relevant d1 (grade 1) at rank 2 and d2 (grade 2) at rank 3; d3 (grade 1)
  /// is not retrieved.
  ///   DCG@3  = 1/log2(3) + 2/log2(4) = 0.630930 + 1 = 1.630930
  ///   IDCG@3 = 2/log2(2) + 1/log2(3) + 1/log2(4) = 2 + 0.630930 + 0.5 = 3.130930
  ///   nDCG@3 = 0.520909
  @Test func ndcgMatchesTheHandComputedValue() {
    let relevance = ["d1": 1, "d2": 2, "d3": 1, "d9": 0]
    let ranking = ["x", "d1", "d2", "d9"]
    let expected = (1 / log2(3.0) + 2 / log2(4.0)) / (2 + 1 / log2(3.0) + 1 / log2(4.0))
    #expect(abs(RetrievalEvaluation.ndcg(ranking, relevance: relevance, at: 3) - expected) < 1e-12)
    #expect(abs(expected - 0.520909) < 1e-6)
  }

  @Test func ndcgEdgeCases() {
    #expect(RetrievalEvaluation.ndcg(["a"], relevance: ["a": 1], at: 10) == 1)
    #expect(RetrievalEvaluation.ndcg(["b", "a"], relevance: ["a": 1], at: 1) == 0)
    #expect(RetrievalEvaluation.ndcg([String](), relevance: ["a": 1], at: 10) == 0)
    #expect(RetrievalEvaluation.ndcg(["a"], relevance: [String: Int](), at: 10) == 0)
    // A duplicate counts once.
    #expect(RetrievalEvaluation.ndcg(["a", "a"], relevance: ["a": 1, "b": 1], at: 2)
      == 1 / (1 + 1 / log2(3.0)))
  }

  @Test func recall() {
    let relevance = ["a": 1, "b": 1, "c": 1, "z": 0]
    #expect(RetrievalEvaluation.recall(["a", "x", "b", "c"], relevance: relevance, at: 3) == 2.0 / 3.0)
    #expect(RetrievalEvaluation.recall(["z"], relevance: ["z": 0], at: 3) == 0)
  }

  @Test func pairedBootstrapIsReproducibleAndBracketsTheMean() {
    let a = [0.9, 0.8, 0.7, 0.6, 1.0, 0.5]
    let b = [0.8, 0.8, 0.6, 0.6, 0.9, 0.4]
    let first = RetrievalEvaluation.pairedBootstrap(a, b, resamples: 2_000, seed: 7)
    let second = RetrievalEvaluation.pairedBootstrap(a, b, resamples: 2_000, seed: 7)
    #expect(first == second)
    #expect(abs(first.meanDifference - 0.4 / 6) < 1e-12)
    #expect(first.lower <= first.meanDifference && first.meanDifference <= first.upper)
    #expect(first.lower >= 0 && first.upper <= 0.1 + 1e-12)
  }
}
