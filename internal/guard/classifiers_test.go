package guard

import (
	"context"
	"errors"
	"math"
	"slices"
	"testing"
)

func TestSafetyClassifierRoles(t *testing.T) {
	var got []Message
	gen := generatorFunc(func(_ context.Context, m []Message) (Generation, error) {
		got = m
		return Generation{Text: "safe"}, nil
	})
	NewSafetyClassifier("lg", gen, RoleUser).Classify(context.Background(), "prompt")
	if !slices.Equal(got, []Message{{"user", "prompt"}}) {
		t.Errorf("user role sent %v", got)
	}
	NewSafetyClassifier("lg", gen, RoleAgent).Classify(context.Background(), "answer")
	// Llama Guard judges the last turn; the answer must be the assistant's.
	if len(got) != 2 || got[1] != (Message{"assistant", "answer"}) || got[0].Role != "user" {
		t.Errorf("agent role sent %v", got)
	}
}

func TestScoresFromLogprobs(t *testing.T) {
	lp := math.Log(0.8)
	tests := []struct {
		name  string
		c     func(Generator) Classifier
		gen   Generation
		score float64
		mal   bool
	}{
		{"unsafe after blank token", func(g Generator) Classifier { return NewSafetyClassifier("lg", g, RoleUser) },
			Generation{Text: "\n\nunsafe\nS1", Tokens: []TokenProb{{"\n\n", 0}, {"unsafe", lp}, {"\n", 0}, {"S1", 0}}}, 0.8, true},
		{"safe", func(g Generator) Classifier { return NewSafetyClassifier("lg", g, RoleUser) },
			Generation{Text: "safe", Tokens: []TokenProb{{"safe", lp}}}, 0.2, false},
		{"safe without logprobs", func(g Generator) Classifier { return NewSafetyClassifier("lg", g, RoleUser) },
			Generation{Text: "safe"}, 0, false},
		{"malicious label", func(g Generator) Classifier { return NewLabelInjectionClassifier("pg", g) },
			Generation{Text: "MALICIOUS", Tokens: []TokenProb{{"MAL", lp}, {"ICIOUS", 0}}}, 0.8, true},
		{"benign label", func(g Generator) Classifier { return NewLabelInjectionClassifier("pg", g) },
			Generation{Text: "BENIGN", Tokens: []TokenProb{{"BEN", lp}}}, 0.2, false},
		{"malicious label without logprobs", func(g Generator) Classifier { return NewLabelInjectionClassifier("pg", g) },
			Generation{Text: "MALICIOUS"}, 1, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			gen := tt.gen
			c := tt.c(generatorFunc(func(context.Context, []Message) (Generation, error) { return gen, nil }))
			v, err := c.Classify(context.Background(), "x")
			if err != nil || v.Malicious != tt.mal || math.Abs(v.Score-tt.score) > 1e-9 || v.Kind != c.Kind() {
				t.Fatalf("verdict %+v err %v, want malicious %v score %v", v, err, tt.mal, tt.score)
			}
		})
	}
}

type scorerFunc func(context.Context, string) (float64, error)

func (f scorerFunc) Score(ctx context.Context, s string) (float64, error) { return f(ctx, s) }

func TestScoreInjectionClassifier(t *testing.T) {
	for _, tt := range []struct {
		p       float64
		mal, ok bool
	}{{0.2, false, true}, {0.5, true, true}, {0.99, true, true}, {1.5, false, false}, {-0.1, false, false}, {math.NaN(), false, false}} {
		v, err := NewScoreInjectionClassifier("pg", scorerFunc(func(context.Context, string) (float64, error) { return tt.p, nil })).Classify(context.Background(), "x")
		if tt.ok != (err == nil) || (!tt.ok && !errors.Is(err, ErrMalformedOutput)) || (tt.ok && (v.Malicious != tt.mal || v.Score != tt.p)) {
			t.Errorf("p=%v: %+v %v", tt.p, v, err)
		}
	}
	backendErr := errors.New("down")
	if _, err := NewScoreInjectionClassifier("pg", scorerFunc(func(context.Context, string) (float64, error) { return 0, backendErr })).Classify(context.Background(), "x"); !errors.Is(err, backendErr) {
		t.Errorf("backend error lost: %v", err)
	}
}

func TestTruncatedAnswerIsMalformed(t *testing.T) {
	gen := generatorFunc(func(context.Context, []Message) (Generation, error) {
		return Generation{Text: "unsafe\nS1", Truncated: true}, nil // perhaps "S14" cut short
	})
	for _, c := range []Classifier{NewSafetyClassifier("lg", gen, RoleUser), NewLabelInjectionClassifier("pg", gen)} {
		if _, err := c.Classify(context.Background(), "x"); !errors.Is(err, ErrMalformedOutput) {
			t.Errorf("%s: err = %v", c.Name(), err)
		}
	}
}
