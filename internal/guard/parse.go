package guard

import (
	"fmt"
	"slices"
	"strings"
)

// maxVerdictLen bounds what the parsers accept: a real verdict is a few tokens, and anything
// longer is a model that is talking, not classifying.
const maxVerdictLen = 256

// ParseLlamaGuard parses a Llama Guard answer: "safe", or "unsafe" followed by a line of
// comma-separated categories ("unsafe\nS1,S3"). Anything else — unknown codes, "unsafe" without
// categories, extra lines — is ErrMalformedOutput. The error never quotes the output.
func ParseLlamaGuard(out string) (Verdict, error) {
	v := Verdict{Kind: KindSafety}
	if len(out) > maxVerdictLen {
		return v, fmt.Errorf("%w: %d bytes, longer than a verdict", ErrMalformedOutput, len(out))
	}
	var lines []string
	for _, l := range strings.Split(out, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			lines = append(lines, l)
		}
	}
	if len(lines) == 0 {
		return v, fmt.Errorf("%w: empty", ErrMalformedOutput)
	}
	switch strings.ToLower(lines[0]) {
	case "safe":
		if len(lines) != 1 {
			return v, fmt.Errorf("%w: %d lines after safe", ErrMalformedOutput, len(lines)-1)
		}
		return v, nil
	case "unsafe":
	default:
		return v, fmt.Errorf("%w: %d bytes, first line is neither safe nor unsafe", ErrMalformedOutput, len(out))
	}
	if len(lines) != 2 {
		return v, fmt.Errorf("%w: unsafe with %d category lines, want 1", ErrMalformedOutput, len(lines)-1)
	}
	var cats []Category
	for i, code := range strings.Split(lines[1], ",") {
		c, ok := LookupCategory(strings.ToUpper(strings.TrimSpace(code)))
		if !ok {
			return v, fmt.Errorf("%w: category %d is not S1..S14", ErrMalformedOutput, i+1)
		}
		if !slices.Contains(cats, c) {
			cats = append(cats, c)
		}
	}
	slices.SortFunc(cats, func(a, b Category) int { return categoryIndex(a) - categoryIndex(b) })
	v.Malicious, v.Score, v.Categories = true, 1, cats
	return v, nil
}

func categoryIndex(c Category) int {
	for i, s := range safetyCategories {
		if s.Code == c.Code {
			return i
		}
	}
	return len(safetyCategories)
}

// ParsePromptGuardLabel parses the label a generative injection classifier answers with. It accepts
// Prompt Guard 2's labels (BENIGN, MALICIOUS), Prompt Guard 1's (INJECTION, JAILBREAK are both
// malicious) and the raw Hugging Face ids (LABEL_0, LABEL_1), in any case.
func ParsePromptGuardLabel(out string) (malicious bool, err error) {
	if len(out) > maxVerdictLen {
		return false, fmt.Errorf("%w: %d bytes, longer than a label", ErrMalformedOutput, len(out))
	}
	switch strings.ToUpper(strings.TrimSpace(out)) {
	case "BENIGN", "LABEL_0":
		return false, nil
	case "MALICIOUS", "INJECTION", "JAILBREAK", "LABEL_1":
		return true, nil
	}
	return false, fmt.Errorf("%w: %d bytes, not a known label", ErrMalformedOutput, len(out))
}
