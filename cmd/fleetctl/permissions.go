package main

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/sucursal/sucursal/internal/fleet"
	"github.com/sucursal/sucursal/internal/fleetapi"
)

func newEdgePermissionsCommand() *cobra.Command {
	var (
		edge, format string
		buckets      fleetapi.Buckets
	)
	cmd := &cobra.Command{
		Use:   "edge-permissions --edge ID [--format json|nsc]",
		Short: "Print the NATS permissions one edge needs for model sync (and nothing more)",
		Example: `  fleetctl edge-permissions --edge branch-0042
  fleetctl edge-permissions --edge branch-0042 --format nsc`,
		Long: `json (default): the user's "permissions" block for a nats-server configuration, e.g.
  authorization { users = [ { user: "ID", password: "...", permissions: <this output> } ] }
nsc: the flags for "nsc add user" / "nsc edit user" (JWT-based accounts).
The edge must connect with the inbox prefix the edge-agent uses (_INBOX.edge.ID).`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			p, err := fleet.EdgePermissions(edge, buckets)
			if err != nil {
				return err
			}
			out := cmd.OutOrStdout()
			switch format {
			case "json":
				enc := json.NewEncoder(out)
				enc.SetEscapeHTML(false) // ">" is a NATS wildcard, keep it readable
				enc.SetIndent("", "  ")
				return enc.Encode(p)
			case "nsc":
				fmt.Fprintf(out, "--name %s --allow-pub '%s' --allow-sub '%s'\n", edge,
					strings.Join(p.Publish.Allow, ","), strings.Join(p.Subscribe.Allow, ","))
			default:
				return fmt.Errorf("--format %q: want json or nsc", format)
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&edge, "edge", "", "edge id (required)")
	cmd.Flags().StringVar(&format, "format", "json", "json (nats-server config) or nsc (flags)")
	cmd.Flags().StringVar(&buckets.Desired, "desired-bucket", "", "desired-state KV bucket (default "+fleetapi.DefaultDesiredBucket+")")
	cmd.Flags().StringVar(&buckets.Status, "status-bucket", "", "status KV bucket (default "+fleetapi.DefaultStatusBucket+")")
	cmd.Flags().StringVar(&buckets.Artifacts, "artifacts-bucket", "", "artifact Object Store (default "+fleetapi.DefaultArtifactsBucket+")")
	return cmd
}
