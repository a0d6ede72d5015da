package main

import (
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"slices"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/sucursal/sucursal/internal/fleet"
	"github.com/sucursal/sucursal/internal/fleetapi"
)

func newStatusCommand() *cobra.Command {
	var nf natsFlags
	var output string
	var watch bool
	var every time.Duration
	cmd := &cobra.Command{
		Use:   "status",
		Short: "Per edge: versions it actually runs, download progress, health, last error, last seen; skew per role",
		RunE: func(cmd *cobra.Command, _ []string) error {
			js, closeConn, err := nf.connect("status")
			if err != nil {
				return err
			}
			defer closeConn()
			for {
				edges, err := fleet.Snapshot(cmd.Context(), js, fleet.Config{})
				if err != nil {
					return err
				}
				if err := printStatus(cmd.OutOrStdout(), edges, output == "json"); err != nil {
					return err
				}
				if !watch {
					return nil
				}
				select {
				case <-cmd.Context().Done():
					return nil
				case <-time.After(every):
				}
			}
		},
	}
	nf.register(cmd)
	cmd.Flags().StringVarP(&output, "output", "o", "text", "text or json")
	cmd.Flags().BoolVar(&watch, "watch", false, "print again every --interval")
	cmd.Flags().DurationVar(&every, "interval", 2*time.Second, "refresh interval for --watch")
	return cmd
}

func printStatus(w io.Writer, edges []fleetapi.EdgeStatus, asJSON bool) error {
	skew := fleet.Skew(edges)
	if asJSON {
		return json.NewEncoder(w).Encode(map[string]any{"edges": edges, "skew": skew})
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "EDGE\tROLE\tRUNNING\tPREVIOUS\tDESIRED\tSTATE\tPROGRESS\tREQ\tERR\tLAST ERROR\tSEEN")
	for _, e := range edges {
		for _, role := range slices.Sorted(maps.Keys(e.Roles)) {
			rs := e.Roles[role]
			progress := "-"
			if rs.BytesTotal > 0 {
				progress = fmt.Sprintf("%d%%", rs.BytesDone*100/rs.BytesTotal)
			}
			lastErr := "-"
			if rs.Reason != "" {
				lastErr = rs.Reason + " (" + rs.FailedVersion + ")"
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%d\t%d\t%s\t%s ago\n", e.EdgeID, role, dash(rs.Version), dash(rs.Previous),
				dash(rs.Desired), rs.State, progress, rs.Health.Requests, rs.Health.Errors, lastErr,
				time.Since(e.Seen).Truncate(time.Second))
		}
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, role := range slices.Sorted(maps.Keys(skew)) {
		fmt.Fprintf(w, "role %s:", role)
		for _, v := range slices.Sorted(maps.Keys(skew[role])) {
			fmt.Fprintf(w, " %s=%d", dash(v), skew[role][v])
		}
		if len(skew[role]) > 1 {
			fmt.Fprint(w, "  (SKEW)")
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
