package configcheck

import (
	"errors"
	"fmt"
	"sort"
	"strings"
)

// Kind says which pass found a problem.
type Kind string

const (
	KindSyntax  Kind = "syntax"      // the file is not YAML
	KindUnknown Kind = "unknown key" // a key no section defines (a typo must not fall back to a default)
	KindType    Kind = "type"        // a value of the wrong type
	KindLogic   Kind = "logic"       // values that are each fine but not together, or out of range
	KindPKI     Kind = "pki"         // a certificate or key file the configuration names
)

// Problem is one thing wrong with a configuration.
type Problem struct {
	Line, Column int // 1-based; 0 when the problem has no one place (most logic and PKI problems)
	Kind         Kind
	Msg          string
}

func (p Problem) String() string {
	switch {
	case p.Line > 0 && p.Column > 0:
		return fmt.Sprintf("line %d, column %d: %s: %s", p.Line, p.Column, p.Kind, p.Msg)
	case p.Line > 0:
		return fmt.Sprintf("line %d: %s: %s", p.Line, p.Kind, p.Msg)
	}
	return fmt.Sprintf("%s: %s", p.Kind, p.Msg)
}

// Report is every problem found in one file.
type Report struct {
	File     string
	Problems []Problem
}

// OK reports whether the file had no problem.
func (r Report) OK() bool { return len(r.Problems) == 0 }

// Add appends problems, keeping those with a place in file order before those without.
func (r *Report) Add(ps ...Problem) {
	r.Problems = append(r.Problems, ps...)
	sort.SliceStable(r.Problems, func(i, j int) bool {
		a, b := r.Problems[i], r.Problems[j]
		if (a.Line == 0) != (b.Line == 0) {
			return a.Line != 0
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		return a.Column < b.Column
	})
}

// Text is the report as an operator reads it: one line per problem, or one OK line.
func (r Report) Text() string {
	if r.OK() {
		return fmt.Sprintf("%s: OK\n", r.File)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %d problem(s):\n", r.File, len(r.Problems))
	for _, p := range r.Problems {
		fmt.Fprintf(&b, "  %s\n", p)
	}
	return b.String()
}

// Logic turns a Validate error (errors.Join of each section's joined errors) into one problem per
// leaf error.
func Logic(err error) []Problem {
	var out []Problem
	var walk func(error)
	walk = func(err error) {
		if err == nil {
			return
		}
		if j, ok := err.(interface{ Unwrap() []error }); ok {
			for _, e := range j.Unwrap() {
				walk(e)
			}
			return
		}
		for _, line := range strings.Split(err.Error(), "\n") {
			if line = strings.TrimSpace(line); line != "" {
				out = append(out, Problem{Kind: KindLogic, Msg: line})
			}
		}
	}
	walk(err)
	return out
}

// Errors joins problems into one error, one problem a line (nil for none).
func Errors(ps []Problem) error {
	errs := make([]error, len(ps))
	for i, p := range ps {
		errs[i] = errors.New(p.String())
	}
	return errors.Join(errs...)
}
