package main

import (
	"strings"
	"testing"
)

// TestHubRefusesToServeAnonymouslyBeyondLoopback: the hub will not start without credentials
// unless told --insecure, and --insecure only on loopback. Each case fails before any socket is
// opened, so none of them can serve anything.
func TestHubRefusesToServeAnonymouslyBeyondLoopback(t *testing.T) {
	clearTwins(t)
	store := t.TempDir()
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"--listen", "0.0.0.0:4222"}, "--pki DIR is required"},
		{[]string{"--listen", "127.0.0.1:4222"}, "--pki DIR is required"},
		{[]string{"--listen", "0.0.0.0:4222", "--insecure"}, "only on a loopback address"},
		{[]string{"--listen", ":4222", "--insecure"}, "only on a loopback address"},
		{[]string{"--listen", "127.0.0.1:4222", "--insecure", "--pki", store}, "give one"},
	}
	for _, tc := range tests {
		out, err := run(t, append([]string{"hub", "--store", store}, tc.args...)...)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Fatalf("hub %v: err %v (output %q), want %q", tc.args, err, out, tc.want)
		}
	}
}
