package guard

import (
	"context"
	"fmt"
	"math"
	"strings"
)

// Message is one chat turn sent to a generative guard model; the model server applies the guard
// model's own chat template (which carries the category list and instructions).
type Message struct {
	Role    string `json:"role"` // "user" | "assistant"
	Content string `json:"content"`
}

// TokenProb is one generated token and its log probability.
type TokenProb struct {
	Text    string
	Logprob float64
}

// Generation is a generative guard model's greedy answer. Tokens is empty when the backend gives
// no log probabilities.
type Generation struct {
	Text   string
	Tokens []TokenProb
	// Truncated: the answer hit the token cap. A cut category list ("S1" of "S14") would be
	// misread, so a truncated answer is malformed.
	Truncated bool
}

// Generator runs a generative guard model (Llama Guard, or a Prompt Guard exported as a label
// generator). Implementations must decode greedily and keep the answer short.
type Generator interface {
	Generate(ctx context.Context, msgs []Message) (Generation, error)
}

// Scorer returns the probability that a text is malicious, from a sequence-classification model.
type Scorer interface {
	Score(ctx context.Context, text string) (float64, error)
}

// Role says whose turn a safety classifier judges. Llama Guard's template judges the last turn:
// the user's prompt on the way in, the agent's answer on the way out.
type Role int

const (
	RoleUser Role = iota
	RoleAgent
)

type safetyClassifier struct {
	name string
	gen  Generator
	role Role
}

// NewSafetyClassifier classifies with a Llama Guard model behind gen.
func NewSafetyClassifier(name string, gen Generator, role Role) Classifier {
	return &safetyClassifier{name: name, gen: gen, role: role}
}

func (c *safetyClassifier) Name() string { return c.name }
func (c *safetyClassifier) Kind() Kind   { return KindSafety }

func (c *safetyClassifier) Classify(ctx context.Context, text string) (Verdict, error) {
	msgs := []Message{{Role: "user", Content: text}}
	if c.role == RoleAgent {
		// Llama Guard's chat template wants turns to alternate starting with the user.
		msgs = []Message{{Role: "user", Content: ""}, {Role: "assistant", Content: text}}
	}
	g, err := c.gen.Generate(ctx, msgs)
	if err != nil {
		return Verdict{Kind: KindSafety}, err
	}
	if g.Truncated {
		return Verdict{Kind: KindSafety}, fmt.Errorf("%w: answer cut at the token cap", ErrMalformedOutput)
	}
	v, err := ParseLlamaGuard(g.Text)
	if err != nil {
		return v, err
	}
	if p, ok := leadProb(g.Tokens); ok {
		v.Score = scoreFor(v.Malicious, p)
	}
	return v, nil
}

type labelInjectionClassifier struct {
	name string
	gen  Generator
}

// NewLabelInjectionClassifier classifies with an injection model that answers with a label
// (BENIGN / MALICIOUS). The score is the probability of the label's first token when the backend
// gives log probabilities, else 1 or 0.
func NewLabelInjectionClassifier(name string, gen Generator) Classifier {
	return &labelInjectionClassifier{name: name, gen: gen}
}

func (c *labelInjectionClassifier) Name() string { return c.name }
func (c *labelInjectionClassifier) Kind() Kind   { return KindInjection }

func (c *labelInjectionClassifier) Classify(ctx context.Context, text string) (Verdict, error) {
	v := Verdict{Kind: KindInjection}
	g, err := c.gen.Generate(ctx, []Message{{Role: "user", Content: text}})
	if err != nil {
		return v, err
	}
	if g.Truncated {
		return v, fmt.Errorf("%w: answer cut at the token cap", ErrMalformedOutput)
	}
	if v.Malicious, err = ParsePromptGuardLabel(g.Text); err != nil {
		return v, err
	}
	v.Score = scoreFor(v.Malicious, 1)
	if p, ok := leadProb(g.Tokens); ok {
		v.Score = scoreFor(v.Malicious, p)
	}
	return v, nil
}

type scoreInjectionClassifier struct {
	name string
	s    Scorer
}

// NewScoreInjectionClassifier classifies with a sequence-classification model (Prompt Guard 2 on
// OVMS's KServe API) that returns P(malicious).
func NewScoreInjectionClassifier(name string, s Scorer) Classifier {
	return &scoreInjectionClassifier{name: name, s: s}
}

func (c *scoreInjectionClassifier) Name() string { return c.name }
func (c *scoreInjectionClassifier) Kind() Kind   { return KindInjection }

func (c *scoreInjectionClassifier) Classify(ctx context.Context, text string) (Verdict, error) {
	p, err := c.s.Score(ctx, text)
	if err != nil {
		return Verdict{Kind: KindInjection}, err
	}
	if math.IsNaN(p) || p < 0 || p > 1 {
		return Verdict{Kind: KindInjection}, fmt.Errorf("%w: score out of [0,1]", ErrMalformedOutput)
	}
	return Verdict{Kind: KindInjection, Malicious: p >= 0.5, Score: p}, nil
}

// leadProb is the probability of the first token that carries the verdict: Llama Guard 3 starts its
// answer with blank lines, which say nothing.
func leadProb(toks []TokenProb) (float64, bool) {
	for _, t := range toks {
		if strings.TrimSpace(t.Text) != "" {
			p := math.Exp(t.Logprob)
			if math.IsNaN(p) || p > 1 {
				return 0, false
			}
			return p, true
		}
	}
	return 0, false
}

// scoreFor turns the probability of the label the model chose into P(malicious).
func scoreFor(malicious bool, p float64) float64 {
	if malicious {
		return p
	}
	return 1 - p
}
