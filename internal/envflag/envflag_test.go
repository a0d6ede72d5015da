package envflag

import (
	"strings"
	"testing"

	"github.com/spf13/cobra"
)

func TestCobraPrecedenceAndHelp(t *testing.T) {
	var listen, dc string
	var n int
	root := &cobra.Command{Use: "x", RunE: func(*cobra.Command, []string) error { return nil }}
	root.Flags().StringVar(&listen, "listen", "127.0.0.1:8080", "where to listen")
	root.Flags().StringVar(&dc, "dc-addr", "", "datacenter address")
	root.Flags().IntVar(&n, "max-streams", 4, "streams")
	Cobra(root, "EDGE_AGENT")

	if u := root.Flags().Lookup("dc-addr").Usage; !strings.Contains(u, "[env EDGE_AGENT_DC_ADDR]") {
		t.Fatalf("usage %q does not name the env twin", u)
	}
	t.Setenv("EDGE_AGENT_LISTEN", "from-env")
	t.Setenv("EDGE_AGENT_DC_ADDR", "dc-from-env")
	root.SetArgs([]string{"--dc-addr", "dc-from-flag"})
	if err := root.Execute(); err != nil {
		t.Fatal(err)
	}
	if listen != "from-env" {
		t.Errorf("listen = %q, want the env value", listen)
	}
	if dc != "dc-from-flag" {
		t.Errorf("dc-addr = %q, want the flag to win over env", dc)
	}
	if !Changed(root.Flags(), "listen") {
		t.Errorf("a flag set from env must count as changed (it overrides the config file)")
	}
}

func TestApplyReportsEveryBadValue(t *testing.T) {
	root := &cobra.Command{Use: "x", RunE: func(*cobra.Command, []string) error { return nil }}
	root.Flags().Int("a", 0, "")
	root.Flags().Int("b", 0, "")
	root.SilenceErrors, root.SilenceUsage = true, true
	Cobra(root, "P")
	t.Setenv("P_A", "one")
	t.Setenv("P_B", "two")
	root.SetArgs(nil)
	err := root.Execute()
	if err == nil || !strings.Contains(err.Error(), "P_A") || !strings.Contains(err.Error(), "P_B") {
		t.Fatalf("want both bad variables reported, got %v", err)
	}
}
