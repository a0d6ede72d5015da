package main

import (
	"errors"
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"github.com/sucursal/sucursal/internal/agent"
)

// errReported ends a command whose output already said what was wrong: exit 1, nothing more.
var errReported = errors.New("reported")

// newConfigCmd is `edge-agent config`: checks of a configuration file before a restart.
func newConfigCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "config",
		Short: "Check a configuration file before restarting the service",
		Example: `  edge-agent config check /etc/sucursal/edge-agent.yaml
  edge-agent config check /etc/sucursal/edge-agent.yaml && systemctl restart edge-agent`,
	}
	cmd.AddCommand(&cobra.Command{
		Use:   "check FILE",
		Short: "List every problem in FILE at once: YAML syntax, unknown keys, logic, PKI files",
		Long: `check reads FILE as 'edge-agent --config FILE' would and lists every problem in one run:
YAML syntax errors with their line and column, unknown keys with the closest known key, values of
the wrong type, the logic the agent checks at start-up, and the PKI files it would load (ca.crt and
edges/<edge_id>.crt/.key: missing, unreadable, key not the certificate's or readable by others,
not signed by the CA, expired, or another edge's), and tls_cert/tls_key when set. A syntax error
stops the reading: nothing after it can be checked until it is fixed.

It checks the file alone: flags and EDGE_AGENT_* variables, which override the file when the
service runs, are not applied. Exit status 0 and one OK line when the file is clean, 1 otherwise.`,
		Example: `  edge-agent config check /etc/sucursal/edge-agent.yaml`,
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			r := agent.CheckFile(args[0], time.Now())
			fmt.Fprint(cmd.OutOrStdout(), r.Text())
			if !r.OK() {
				return errReported
			}
			return nil
		},
	})
	return cmd
}
