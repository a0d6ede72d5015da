package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/sucursal/sucursal/internal/sizing"
)

func newSizeCommand() *cobra.Command {
	var o sizeOptions
	cmd := &cobra.Command{
		Use:   "size --assumptions FILE [-o text|json|yaml] [--write-assumptions OUT]",
		Short: "Size the datacenter's GPUs, nodes and cost from a latency SLO and a demand forecast",
		Long: `Size the datacenter from one assumptions file (docs/SIZING.md): demand, the utilisation ceiling
the latency SLO allows, GPUs and nodes, the memory of one replica, speculative drafting as a lever,
and the cost against renting. Each step prints its inputs and formulas.

Unknown or missing keys and bad values in the file are reported together. --write-assumptions
writes the assumptions actually used, every default filled in and the date kept (today's when the
file had none), so the same sizing can be run again months later; it never overwrites a file.

The command fails when a check fails (the plan cannot meet its SLO as sized); warnings do not fail
it. Sizing from the demand the fleet measures (--from-fleet) is not available yet.`,
		Example: `  # the report for the example plan
  fleetctl size --assumptions packaging/sizing/example-assumptions.yaml

  # as JSON, keeping the assumptions actually used beside it
  fleetctl size --assumptions plan.yaml -o json --write-assumptions plan-used-2026-12-01.yaml

  # from the environment
  FLEETCTL_ASSUMPTIONS=plan.yaml FLEETCTL_OUTPUT=yaml fleetctl size`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return o.run(cmd.OutOrStdout(), time.Now())
		},
	}
	cmd.Flags().StringVar(&o.file, "assumptions", "", "assumptions file, YAML (required; example: packaging/sizing/example-assumptions.yaml)")
	cmd.Flags().StringVarP(&o.output, "output", "o", sizing.Formats[0], "report format: "+strings.Join(sizing.Formats, ", "))
	cmd.Flags().StringVar(&o.writeTo, "write-assumptions", "", "also write the assumptions used, defaults filled in, to this new file (never overwritten)")
	return cmd
}

type sizeOptions struct {
	file, output, writeTo string
}

func (o sizeOptions) run(w io.Writer, now time.Time) error {
	if !slices.Contains(sizing.Formats, o.output) {
		return fmt.Errorf("unknown output format %q (want %s)", o.output, strings.Join(sizing.Formats, ", "))
	}
	if o.file == "" {
		return errors.New("--assumptions is required (FLEETCTL_ASSUMPTIONS)")
	}
	data, err := os.ReadFile(o.file)
	if err != nil {
		return err
	}
	a, err := sizing.Load(data, now)
	if err != nil {
		return fmt.Errorf("%s: %w", o.file, err)
	}
	report, err := sizing.Size(a, sizing.Provenance{})
	if err != nil {
		return fmt.Errorf("%s: %w", o.file, err)
	}
	if o.writeTo != "" {
		if err := writeAssumptions(o.writeTo, a, o.file, now); err != nil {
			return err
		}
	}
	if err := report.Write(w, o.output); err != nil {
		return err
	}
	if failed := report.Failed(); len(failed) > 0 {
		names := make([]string, len(failed))
		for i, c := range failed {
			names[i] = c.Name
		}
		return fmt.Errorf("the plan cannot meet its SLO as sized: %d checks failed (%s)", len(failed), strings.Join(names, ", "))
	}
	return nil
}

// writeAssumptions creates path (O_EXCL: a written plan is a record, never replaced by accident).
func writeAssumptions(path string, a sizing.Assumptions, from string, now time.Time) error {
	out, err := a.Marshal(
		fmt.Sprintf("Assumptions used by fleetctl size %s on %s, from %s, every default filled in.", version, now.Format(time.DateOnly), from),
		"Run the same sizing again: fleetctl size --assumptions <this file>",
	)
	if err != nil {
		return err
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
	if err != nil {
		return fmt.Errorf("--write-assumptions: %w", err)
	}
	if _, err := f.Write(out); err != nil {
		f.Close()
		return fmt.Errorf("--write-assumptions: %w", err)
	}
	return f.Close()
}
