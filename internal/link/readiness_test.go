package link

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/quic-go/quic-go"

	"github.com/sucursal/sucursal/internal/wire"
)

// Readiness reasons are stable codes whose text names no address and quotes no raw error; the
// cause stays reachable for logs.
func TestNotReadyReasons(t *testing.T) {
	raw := "dial 10.1.2.3:4443: tls: failed to verify certificate: x509: certificate signed by unknown authority"
	tests := []struct {
		name string
		err  error
		want string
	}{
		{"never connected", ErrNotConnected, ReasonDown},
		{"dial failed", fmt.Errorf("dial 10.1.2.3:4443: %w", errors.New("timeout")), ReasonDown},
		{"handshake", fmt.Errorf("%s: %w", raw, &quic.TransportError{ErrorCode: quic.TransportErrorCode(0x100 + 42)}), ReasonHandshake},
		{"refused", &RefusedError{Code: wire.CodeIdentity, Reason: "hello claims edge id x"}, ReasonRefused},
		{"version", &RefusedError{Code: wire.CodeVersionMismatch, Reason: "unsupported protocol version 2"}, ReasonVersion},
		{"version (ours)", fmt.Errorf("link: %w: gateway speaks version 2", wire.ErrVersion), ReasonVersion},
		{"draining", ErrDraining, ReasonDraining},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := notReady(tt.err)
			if e.Reason != tt.want || !strings.HasPrefix(e.Error(), tt.want+": ") {
				t.Fatalf("reason %q (%q), want %q", e.Reason, e.Error(), tt.want)
			}
			if strings.Contains(e.Error(), "10.1.2.3") || strings.Contains(e.Error(), "x509") {
				t.Fatalf("the reason leaks the raw cause: %q", e.Error())
			}
			if !errors.Is(e, tt.err) {
				t.Fatal("the cause is lost")
			}
		})
	}
}

func TestTuningValidate(t *testing.T) {
	if err := DefaultTuning().Validate(); err != nil {
		t.Fatalf("defaults: %v", err)
	}
	bad := DefaultTuning()
	bad.PingInterval, bad.PingTimeout, bad.DeadAfterUnacknowledged = bad.PingTimeout, bad.PingInterval, -1
	err := bad.Validate()
	for _, want := range []string{"link.ping_interval", "link.dead_after_unacknowledged"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Fatalf("Validate() = %v, want a problem with %s", err, want)
		}
	}
}
