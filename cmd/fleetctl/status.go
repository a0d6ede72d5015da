package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"
	"go.yaml.in/yaml/v3"

	"github.com/sucursal/sucursal/internal/fleet"
)

// outputFormats are the values every -o flag of fleetctl's read commands accepts.
var outputFormats = []string{"text", "json", "yaml"}

func checkOutput(o string) error {
	if !slices.Contains(outputFormats, o) {
		return fmt.Errorf("unknown output format %q (want %s)", o, strings.Join(outputFormats, ", "))
	}
	return nil
}

// writeDoc writes v as JSON (indented) or YAML with the same field names as the JSON.
func writeDoc(w io.Writer, format string, v any) error {
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	if format == "json" {
		_, err = fmt.Fprintf(w, "%s\n", data)
		return err
	}
	// JSON is YAML; reading it as a node keeps the field order, and clearing the styles turns
	// JSON's flow style into block style.
	var n yaml.Node
	if err := yaml.Unmarshal(data, &n); err != nil {
		return err
	}
	var clear func(*yaml.Node)
	clear = func(n *yaml.Node) {
		n.Style = 0
		for _, c := range n.Content {
			clear(c)
		}
	}
	clear(&n)
	enc := yaml.NewEncoder(w)
	enc.SetIndent(2)
	if err := enc.Encode(&n); err != nil {
		return err
	}
	return enc.Close()
}

// watchFlags are --watch and --interval, shared by status and rollout status.
type watchFlags struct {
	watch bool
	every time.Duration
}

func (f *watchFlags) register(cmd *cobra.Command) {
	cmd.Flags().BoolVarP(&f.watch, "watch", "w", false, "keep showing it: redrawn in place on a terminal, appended with a separator otherwise")
	cmd.Flags().DurationVar(&f.every, "interval", 2*time.Second, "refresh interval for --watch")
}

// run calls render once, or every interval with --watch until ctx ends. On a terminal each frame
// replaces the last; anywhere else (a pipe, a file, a log) frames are appended, text and YAML
// frames after a separator line, JSON as one document per frame.
func (f *watchFlags) run(ctx context.Context, w io.Writer, format string, render func(io.Writer) error) error {
	return f.runOn(ctx, w, isTerminal(w), format, render)
}

func (f *watchFlags) runOn(ctx context.Context, w io.Writer, tty bool, format string, render func(io.Writer) error) error {
	if f.watch && f.every <= 0 {
		return fmt.Errorf("--interval must be positive, got %s", f.every)
	}
	for first := true; ; first = false {
		var frame bytes.Buffer
		if err := render(&frame); err != nil {
			return err
		}
		switch {
		case !f.watch:
		case tty:
			// Home, clear the screen, then the whole frame in one write: no flicker.
			fmt.Fprintf(w, "\x1b[H\x1b[2J%s (every %s, Ctrl-C to stop)\n", time.Now().Format(time.TimeOnly), f.every)
		case format == "yaml":
			fmt.Fprintln(w, "---")
		case format == "text" && !first:
			fmt.Fprintf(w, "\n--- %s ---\n", time.Now().UTC().Format(time.RFC3339))
		}
		if _, err := w.Write(frame.Bytes()); err != nil {
			return err
		}
		if !f.watch {
			return nil
		}
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(f.every):
		}
	}
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

// thresholdFlags are the ONLINE → STALE → OFFLINE thresholds.
type thresholdFlags struct{ th fleet.Thresholds }

func (f *thresholdFlags) register(cmd *cobra.Command) {
	cmd.Flags().DurationVar(&f.th.Stale, "stale-after", fleet.DefaultStaleAfter, "an edge silent this long is STALE")
	cmd.Flags().DurationVar(&f.th.Offline, "offline-after", fleet.DefaultOfflineAfter, "an edge silent this long is OFFLINE (kept until 'fleetctl edge forget')")
}

func newStatusCommand() *cobra.Command {
	var nf natsFlags
	var wf watchFlags
	var tf thresholdFlags
	var output, role string
	var labels, states []string
	cmd := &cobra.Command{
		Use:   "status",
		Short: "Every edge the fleet knows, problems first: state (ONLINE/STALE/OFFLINE), versions per role, progress, health; the edge × role version matrix",
		Long: `Every edge the fleet has heard from, dead ones included: the controller keeps each edge's
last heartbeat in the edges bucket until 'fleetctl edge forget ID'. An edge is ONLINE while its last
heartbeat is younger than --stale-after, STALE until --offline-after, OFFLINE after that.
Problems come first: OFFLINE, STALE, then failed installs and version skew.`,
		Example: `  fleetctl status
  fleetctl status --watch --state offline,stale
  fleetctl status --role drafter --label region=north -o yaml`,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := checkOutput(output); err != nil {
				return err
			}
			if err := tf.th.Validate(); err != nil {
				return err
			}
			filter, err := fleet.ParseFilter(role, labels, states)
			if err != nil {
				return err
			}
			js, closeConn, err := nf.connect("status")
			if err != nil {
				return err
			}
			defer closeConn()
			return wf.run(cmd.Context(), cmd.OutOrStdout(), output, func(w io.Writer) error {
				edges, err := fleet.ReadFleet(cmd.Context(), js, fleet.Config{}, tf.th, time.Now())
				if err != nil {
					return err
				}
				r := fleet.NewReport(edges, filter)
				if output != "text" {
					return writeDoc(w, output, r)
				}
				return printStatus(w, r)
			})
		},
	}
	nf.register(cmd)
	wf.register(cmd)
	tf.register(cmd)
	cmd.Flags().StringVarP(&output, "output", "o", "text", "output format: "+strings.Join(outputFormats, ", "))
	cmd.Flags().StringVar(&role, "role", "", "only edges that report this role")
	cmd.Flags().StringArrayVar(&labels, "label", nil, "only edges with label key=value (repeatable, all must match)")
	cmd.Flags().StringSliceVar(&states, "state", nil, "only edges in these states: "+strings.Join(fleet.EdgeStates, ", ")+" (comma-separated or repeated)")
	return cmd
}

func printStatus(w io.Writer, r fleet.Report) error {
	fmt.Fprintf(w, "%d edges: %d %s, %d %s, %d %s\n", len(r.Edges), r.Counts[fleet.EdgeOffline], fleet.EdgeOffline,
		r.Counts[fleet.EdgeStale], fleet.EdgeStale, r.Counts[fleet.EdgeOnline], fleet.EdgeOnline)
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "EDGE\tSTATE\tHEARD\tROLE\tRUNNING\tPREVIOUS\tDESIRED\tSYNC\tPROGRESS\tREQ\tERR\tPROBLEMS")
	for _, e := range r.Edges {
		problems := dash(strings.Join(e.Problems, "; "))
		heard := e.Age.Round(time.Second).String() + " ago"
		if len(e.Roles) == 0 { // an edge with no roles yet is still an edge
			fmt.Fprintf(tw, "%s\t%s\t%s\t-\t-\t-\t-\t-\t-\t-\t-\t%s\n", e.EdgeID, e.State, heard, problems)
			continue
		}
		for _, role := range slices.Sorted(maps.Keys(e.Roles)) {
			rs := e.Roles[role]
			progress := "-"
			if rs.BytesTotal > 0 {
				progress = fmt.Sprintf("%d%%", rs.BytesDone*100/rs.BytesTotal)
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%d\t%d\t%s\n", e.EdgeID, e.State, heard, role,
				dash(rs.Version), dash(rs.Previous), dash(rs.Desired), dash(rs.State), progress,
				rs.Health.Requests, rs.Health.Errors, problems)
			problems = "" // once per edge
		}
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if len(r.Roles) == 0 {
		return nil
	}
	// The version matrix: one row per edge, one column per role; * marks a minority version.
	fmt.Fprintln(w)
	tw = tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintf(tw, "VERSIONS\t%s\n", strings.Join(r.Roles, "\t"))
	for _, e := range r.Edges {
		cells := make([]string, len(r.Roles))
		for i, role := range r.Roles {
			rs, ok := e.Roles[role]
			switch {
			case !ok:
				cells[i] = ""
			case r.Skew[role].Skewed() && rs.Version != r.Skew[role].Majority:
				cells[i] = dash(rs.Version) + "*"
			default:
				cells[i] = dash(rs.Version)
			}
		}
		fmt.Fprintf(tw, "%s\t%s\n", e.EdgeID, strings.Join(cells, "\t"))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, role := range r.Roles {
		vc := r.Skew[role]
		fmt.Fprintf(w, "role %s:", role)
		for _, v := range slices.Sorted(maps.Keys(vc.Versions)) {
			fmt.Fprintf(w, " %s=%d", dash(v), vc.Versions[v])
		}
		if vc.Skewed() {
			fmt.Fprintf(w, "  (SKEW: * = not on %s)", vc.Majority)
		}
		fmt.Fprintln(w)
	}
	return nil
}

func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
