package main

import (
	"context"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/sucursal/sucursal/internal/fleet/fleettest"
)

func freePort(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// `fleetctl controller` and `fleetctl hub` serve /metrics with --metrics-listen: the fleet
// exporter, the lease and sucursal_build_info.
func TestControllerAndHubServeMetrics(t *testing.T) {
	clearTwins(t)
	env := fleettest.Start(t)
	env.RunAgent(t, "branch-m", fleettest.AgentOptions{Labels: map[string]string{"site": "m-01"}})
	for _, tc := range []struct {
		name string
		args func(addr string) []string
		want []string
	}{
		{"controller", func(addr string) []string {
			return []string{"controller", "--nats", env.Hub.URL(), "--id", "ctl-m", "--metrics-listen", addr}
		}, []string{`sucursal_fleet_edge_up{edge="branch-m",site="m-01"} 1`, "sucursal_fleet_controller_leader", "sucursal_fleet_read_ok 1"}},
		{"hub", func(addr string) []string {
			return []string{"hub", "--store", t.TempDir(), "--insecure", "--listen", freePort(t), "--id", "hub-m", "--metrics-listen", addr}
		}, []string{"sucursal_fleet_read_ok 1", "sucursal_fleet_controller_leader"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			addr := freePort(t)
			ctx, cancel := context.WithCancel(context.Background())
			done := make(chan error, 1)
			go func() {
				root := newRootCommand()
				root.SetArgs(tc.args(addr))
				root.SetOut(io.Discard)
				root.SetErr(io.Discard)
				done <- root.ExecuteContext(ctx)
			}()
			defer func() {
				cancel()
				if err := <-done; err != nil {
					t.Errorf("%s: %v", tc.name, err)
				}
			}()
			var text string
			fleettest.Eventually(t, tc.name+" /metrics", func() bool {
				resp, err := (&http.Client{Timeout: time.Second}).Get("http://" + addr + "/metrics")
				if err != nil {
					return false
				}
				defer resp.Body.Close()
				b, _ := io.ReadAll(resp.Body)
				text = string(b)
				for _, w := range append(tc.want, "sucursal_build_info{") {
					if !strings.Contains(text, w) {
						return false
					}
				}
				return true
			})
		})
	}
	if out, err := run(t, "controller", "--nats", env.Hub.URL(), "--stale-after", "5m", "--offline-after", "1m"); err == nil {
		t.Fatalf("controller with offline-after < stale-after started:\n%s", out)
	}
}
