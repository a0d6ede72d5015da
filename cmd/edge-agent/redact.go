package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/sucursal/sucursal/internal/envflag"
	"github.com/sucursal/sucursal/internal/redact"
	"github.com/sucursal/sucursal/internal/redact/corpus"
	"github.com/sucursal/sucursal/internal/redact/ner"
)

// newRedactCmd is `edge-agent redact`: the operator's view of the redaction policy, offline.
func newRedactCmd() *cobra.Command {
	var policy, eval, output string
	var lines, showValues bool
	cmd := &cobra.Command{
		Use:   "redact",
		Short: "Redact text from stdin with the branch policy, or evaluate the policy on a labelled corpus",
		Long: `Without --eval, reads text from stdin and prints one JSON line per text: the redacted text
and the entities found (type, byte offsets, placeholder, score, detector). Values are printed only
with --show-values. With --lines every input line is its own text, all in one session (so a value
keeps its placeholder across lines).

With --eval corpus.jsonl, prints precision, recall and coverage per entity type on a labelled
corpus (the format of testdata/redact/corpus.jsonl), how many items were fully covered and how
many decoys were redacted, then the worst miss forms: for each type, the most common shapes of
the values that were not covered (9{5} Aa is "five digits, a capitalised word"), and the decoy
types that were redacted. Values themselves are printed only with --show-values; -o json prints
the same report (figures and shapes, never values) as one JSON object.

The policy is --policy (YAML, see docs/REDACTION.md) or the built-in default. A NER backend in the
policy is called as it would be in service.`,
		Example: `  echo "Soy Ana García, DNI 12345678Z" | edge-agent redact --policy /etc/sucursal/redaction.yaml
  edge-agent redact --lines < prompts.txt
  edge-agent redact --eval testdata/redact/corpus.jsonl
  edge-agent redact --eval testdata/redact/realistic-dev.jsonl -o json`,
		Args:          cobra.NoArgs,
		SilenceUsage:  true,
		SilenceErrors: true,
		RunE: func(cmd *cobra.Command, _ []string) error {
			cfg := redact.DefaultConfig()
			if policy != "" {
				var err error
				if cfg, err = redact.LoadConfig(policy); err != nil {
					return err
				}
			}
			backend, err := ner.New(cfg.NER, nil)
			if err != nil {
				return err
			}
			r, err := redact.New(cfg, backend, nil, newLogger("warn"))
			if err != nil {
				return err
			}
			if output != "text" && output != "json" {
				return fmt.Errorf("--output %q: want text or json", output)
			}
			if eval != "" {
				return runEval(cmd, r, eval, output, showValues)
			}
			if output != "text" {
				return fmt.Errorf("--output json applies to --eval only (without it every text is a JSON line already)")
			}
			return runRedact(cmd, r, cmd.InOrStdin(), cmd.OutOrStdout(), lines, showValues)
		},
	}
	f := cmd.Flags()
	f.StringVar(&policy, "policy", "", "redaction policy YAML (default: built-in policy)")
	f.StringVar(&eval, "eval", "", "labelled corpus (JSON lines) to evaluate the policy on")
	f.BoolVar(&lines, "lines", false, "treat every stdin line as its own text")
	f.BoolVar(&showValues, "show-values", false, "include the detected values in the output, with --eval the missed values and redacted decoys (operator's terminal only)")
	f.StringVarP(&output, "output", "o", "text", "with --eval: text (table and miss forms) or json")
	for _, name := range []string{"eval", "lines", "show-values", "output"} { // per run: a leftover EDGE_AGENT_SHOW_VALUES must not print values
		envflag.NoEnv(f, name)
	}
	return cmd
}

type redactedLine struct {
	Redacted string       `json:"redacted"`
	Entities []entityLine `json:"entities"`
	Degraded bool         `json:"degraded,omitempty"`
}

type entityLine struct {
	Type        string  `json:"type"`
	Start       int     `json:"start"`
	End         int     `json:"end"`
	Placeholder string  `json:"placeholder"`
	Score       float64 `json:"score"`
	Source      string  `json:"source"`
	Text        string  `json:"text,omitempty"`
}

func runRedact(cmd *cobra.Command, r *redact.Redactor, in io.Reader, out io.Writer, lines, showValues bool) error {
	var texts []string
	if lines {
		sc := bufio.NewScanner(in)
		sc.Buffer(make([]byte, 0, 64<<10), 16<<20)
		for sc.Scan() {
			texts = append(texts, sc.Text())
		}
		if err := sc.Err(); err != nil {
			return fmt.Errorf("read stdin: %w", err)
		}
	} else {
		b, err := io.ReadAll(in)
		if err != nil {
			return fmt.Errorf("read stdin: %w", err)
		}
		texts = []string{strings.TrimSuffix(string(b), "\n")}
	}
	s := r.NewSession(0)
	defer s.Close()
	enc := json.NewEncoder(out)
	enc.SetEscapeHTML(false)
	for _, text := range texts {
		spans, err := r.Detect(cmd.Context(), text)
		if err != nil {
			return err
		}
		redacted, err := s.Redact(cmd.Context(), text)
		if err != nil {
			return err
		}
		line := redactedLine{Redacted: redacted, Entities: []entityLine{}}
		for _, sp := range spans {
			e := entityLine{Type: sp.Type, Start: sp.Start, End: sp.End, Score: sp.Score, Source: sp.Source}
			e.Placeholder, _ = s.PlaceholderOf(sp.Text)
			if showValues {
				e.Text = sp.Text
			}
			line.Entities = append(line.Entities, e)
		}
		line.Degraded = s.Stats().Degraded
		if err := enc.Encode(line); err != nil {
			return err
		}
	}
	return nil
}

func runEval(cmd *cobra.Command, r *redact.Redactor, path, output string, showValues bool) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	items, err := corpus.ReadJSONL(f)
	if err != nil {
		return err
	}
	rep, err := corpus.Evaluate(cmd.Context(), items, func(ctx context.Context, text string) ([]corpus.Found, error) {
		spans, err := r.Detect(ctx, text)
		found := make([]corpus.Found, len(spans))
		for i, s := range spans {
			found[i] = corpus.Found{Type: redact.LabelType(s.Type), Start: s.Start, End: s.End}
		}
		return found, err
	})
	if err != nil {
		return err
	}
	out := cmd.OutOrStdout()
	if output == "json" {
		enc := json.NewEncoder(out)
		enc.SetIndent("", "  ")
		return enc.Encode(rep.JSON())
	}
	if err := rep.Print(out); err != nil {
		return err
	}
	return rep.PrintMisses(out, showValues)
}
