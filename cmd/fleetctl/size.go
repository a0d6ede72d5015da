package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/nats-io/nats.go/jetstream"
	"github.com/spf13/cobra"

	"github.com/sucursal/sucursal/internal/fleetapi"
	"github.com/sucursal/sucursal/internal/sizing"
)

func newSizeCommand() *cobra.Command {
	var o sizeOptions
	cmd := &cobra.Command{
		Use:   "size --assumptions FILE [--from-fleet [--since 7d] [--model NAME]] [-o text|json|yaml] [--write-assumptions OUT]",
		Short: "Size the datacenter's GPUs, nodes and cost from a latency SLO and a demand forecast",
		Long: `Size the datacenter from one assumptions file (docs/SIZING.md): demand, the utilisation ceiling
the latency SLO allows, GPUs and nodes, the memory of one replica, speculative drafting as a lever,
and the cost against renting. Each step prints its inputs and formulas.

Unknown or missing keys and bad values in the file are reported together. --write-assumptions
writes the assumptions actually used, every default filled in and the date kept (today's when the
file had none), so the same sizing can be run again months later; it never overwrites a file.

--from-fleet replaces the demand (D, L_in, L_out, k, H) and the drafting acceptance α of --model
with what the edges reported over --since, read from the fleet's usage history (the stream
` + fleetapi.UsageStream + `, one summary per edge every 5 minutes); the report marks each with its
sample count and says why any of them stayed an assumption (docs/SIZING.md: how each is measured).

The command fails when a check fails (the plan cannot meet its SLO as sized); warnings do not fail
it.`,
		Example: `  # the report for the example plan
  fleetctl size --assumptions packaging/sizing/example-assumptions.yaml

  # as JSON, keeping the assumptions actually used beside it
  fleetctl size --assumptions plan.yaml -o json --write-assumptions plan-used-2026-12-01.yaml

  # demand and acceptance from what the fleet measured last week
  fleetctl size --assumptions plan.yaml --from-fleet --since 7d --nats nats://fleet.dc:4222 --creds ops.creds

  # from the environment
  FLEETCTL_ASSUMPTIONS=plan.yaml FLEETCTL_OUTPUT=yaml fleetctl size`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return o.run(cmd.Context(), cmd.OutOrStdout(), time.Now())
		},
	}
	cmd.Flags().StringVar(&o.file, "assumptions", "", "assumptions file, YAML (required; example: packaging/sizing/example-assumptions.yaml)")
	cmd.Flags().StringVarP(&o.output, "output", "o", sizing.Formats[0], "report format: "+strings.Join(sizing.Formats, ", "))
	cmd.Flags().StringVar(&o.writeTo, "write-assumptions", "", "also write the assumptions used, defaults filled in, to this new file (never overwritten)")
	cmd.Flags().BoolVar(&o.fromFleet, "from-fleet", false, "take demand and drafting acceptance from the fleet's usage history (NATS)")
	cmd.Flags().StringVar(&o.since, "since", "7d", "with --from-fleet: the window to read, e.g. 7d, 36h (days as Nd)")
	cmd.Flags().StringVar(&o.model, "model", "", "with --from-fleet: the model name the edges' requests ask for whose acceptance is α (default: the assumptions' model.name)")
	o.nats.register(cmd)
	return cmd
}

type sizeOptions struct {
	file, output, writeTo string
	fromFleet             bool
	since, model          string
	nats                  natsFlags
}

// parseSince reads a window: a Go duration (36h, 90m) or whole days (7d).
func parseSince(s string) (time.Duration, error) {
	var d time.Duration
	var err error
	if days, ok := strings.CutSuffix(s, "d"); ok {
		var n int
		n, err = strconv.Atoi(days)
		d = time.Duration(n) * 24 * time.Hour
	} else {
		d, err = time.ParseDuration(s)
	}
	if err != nil || d <= 0 {
		return 0, fmt.Errorf("--since %q: want a positive duration such as 7d or 36h", s)
	}
	return d, nil
}

func (o sizeOptions) run(ctx context.Context, w io.Writer, now time.Time) error {
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
	var prov sizing.Provenance
	if o.fromFleet {
		if a, prov, err = o.overlayFleet(ctx, a, now); err != nil {
			return err
		}
	}
	report, err := sizing.Size(a, prov)
	if err != nil {
		return fmt.Errorf("%s: %w", o.file, err)
	}
	if o.writeTo != "" {
		if err := writeAssumptions(o.writeTo, a, o.file, now, prov); err != nil {
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

// overlayFleet reads the usage history of the last --since and puts what it measured into a.
func (o sizeOptions) overlayFleet(ctx context.Context, a sizing.Assumptions, now time.Time) (sizing.Assumptions, sizing.Provenance, error) {
	since, err := parseSince(o.since)
	if err != nil {
		return a, sizing.Provenance{}, err
	}
	model := o.model
	if model == "" {
		model = a.Model.Name
	}
	js, closeConn, err := o.nats.connect("size")
	if err != nil {
		return a, sizing.Provenance{}, err
	}
	defer closeConn()
	sum := sizing.NewUsageSum(since, now)
	if err := readUsage(ctx, js, now.Add(-since), sum); err != nil {
		return a, sizing.Provenance{}, err
	}
	f := sum.Demand(model)
	if _, ok := f.Samples[sizing.KeyAcceptance]; ok && a.Speculative == nil {
		delete(f.Samples, sizing.KeyAcceptance)
		f.Notes = append(f.Notes, fmt.Sprintf("the fleet measured α = %.3f for %s, unused: the assumptions have no speculative section", f.Acceptance, model))
	}
	return f.Overlay(a)
}

// readUsage feeds sum every record the usage stream stored since from (a margin earlier: a record
// is stored when its window ends, and sum filters by the window's own end).
func readUsage(ctx context.Context, js jetstream.JetStream, from time.Time, sum *sizing.UsageSum) error {
	s, err := js.Stream(ctx, fleetapi.UsageStream)
	if errors.Is(err, jetstream.ErrStreamNotFound) {
		return fmt.Errorf("the fleet has no usage history (stream %s): run `fleetctl init` (or a hub) of this version, and let edges report for a while", fleetapi.UsageStream)
	}
	if err != nil {
		return fmt.Errorf("usage history: %w", err)
	}
	start := from.Add(-2 * fleetapi.UsageWindow)
	c, err := s.OrderedConsumer(ctx, jetstream.OrderedConsumerConfig{DeliverPolicy: jetstream.DeliverByStartTimePolicy, OptStartTime: &start})
	if err != nil {
		return fmt.Errorf("usage history: %w", err)
	}
	info, err := c.Info(ctx)
	if err != nil {
		return fmt.Errorf("usage history: %w", err)
	}
	left := info.NumPending
	bad := 0
	for left > 0 {
		batch, err := c.Fetch(1000, jetstream.FetchMaxWait(5*time.Second))
		if err != nil {
			return fmt.Errorf("usage history: %w", err)
		}
		got := 0
		for msg := range batch.Messages() {
			got++
			var r fleetapi.UsageRecord
			if json.Unmarshal(msg.Data(), &r) != nil {
				bad++
			} else {
				sum.Add(r)
			}
			if meta, err := msg.Metadata(); err == nil {
				left = meta.NumPending
			}
		}
		if err := batch.Error(); err != nil && !errors.Is(err, jetstream.ErrNoMessages) {
			return fmt.Errorf("usage history: %w", err)
		}
		if got == 0 {
			return fmt.Errorf("usage history: %d records still pending and none arrived within 5 s", left)
		}
	}
	if bad > 0 {
		fmt.Fprintf(os.Stderr, "fleetctl size: %d usage records could not be read and were skipped\n", bad)
	}
	return nil
}

// writeAssumptions creates path (O_EXCL: a written plan is a record, never replaced by accident).
func writeAssumptions(path string, a sizing.Assumptions, from string, now time.Time, p sizing.Provenance) error {
	header := []string{
		fmt.Sprintf("Assumptions used by fleetctl size %s on %s, from %s, every default filled in.", version, now.Format(time.DateOnly), from),
	}
	header = append(header, p.Describe()...)
	header = append(header, "Run the same sizing again: fleetctl size --assumptions <this file>")
	out, err := a.Marshal(header...)
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
