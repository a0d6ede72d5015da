package admission

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/sucursal/sucursal/internal/chat"
)

func code(err error) string {
	var ce *chat.Error
	if errors.As(err, &ce) {
		return ce.Code
	}
	return ""
}

func refusal(t *testing.T, err error, want string, status int) {
	t.Helper()
	var ce *chat.Error
	if !errors.As(err, &ce) || ce.Code != want || ce.Status != status {
		t.Fatalf("got %v, want %d %s", err, status, want)
	}
	if (status == 429 || status == 503) && ce.RetryAfter < time.Second {
		t.Fatalf("%s without Retry-After", want)
	}
}

func cfg(active, queue int, wait time.Duration) Config {
	return Config{MaxActive: active, MaxQueue: queue, MaxWait: wait}
}

func TestTenantLimits(t *testing.T) {
	c := New(Config{MaxActive: 10, MaxQueue: 10, MaxWait: time.Second,
		Default: Limits{MaxActive: 2, MaxInputTokens: 100, MaxOutputTokens: 50}}, nil)
	ctx := context.Background()
	g1, err := c.Admit(ctx, Ticket{Tenant: "a", InputTokens: 10})
	if err != nil || g1.MaxTokens != 50 {
		t.Fatalf("%v %+v: a request that asks for nothing gets max_output_tokens", err, g1)
	}
	g2, _ := c.Admit(ctx, Ticket{Tenant: "a", InputTokens: 10, MaxTokens: 20})
	if g2.MaxTokens != 20 {
		t.Fatalf("asked 20, got %d", g2.MaxTokens)
	}
	_, err = c.Admit(ctx, Ticket{Tenant: "a", InputTokens: 10})
	refusal(t, err, CodeTooConcurrent, 429)
	if _, err := c.Admit(ctx, Ticket{Tenant: "b", InputTokens: 10}); err != nil {
		t.Fatalf("another tenant is not limited by a's requests: %v", err)
	}
	g1.Release()
	g1.Release() // idempotent
	if _, err := c.Admit(ctx, Ticket{Tenant: "a", InputTokens: 10}); err != nil {
		t.Fatalf("a released slot is free again: %v", err)
	}
	_, err = c.Admit(ctx, Ticket{Tenant: "c", InputTokens: 101})
	refusal(t, err, CodeInputTooLong, 400)
}

func TestRateLimits(t *testing.T) {
	c := New(Config{MaxActive: 100, MaxQueue: 1, MaxWait: time.Second,
		Default: Limits{RequestsPerMinute: 6, TokensPerMinute: 1000}}, nil)
	ctx := context.Background()
	for i := 0; i < 1; i++ { // burst is a tenth of a minute's requests, at least 1
		g, err := c.Admit(ctx, Ticket{Tenant: "a", InputTokens: 10})
		if err != nil {
			t.Fatal(err)
		}
		g.Release()
	}
	_, err := c.Admit(ctx, Ticket{Tenant: "a", InputTokens: 10})
	refusal(t, err, CodeRateLimited, 429)
	// Tokens: a single request asking for more than the minute's budget waits for it all.
	c = New(Config{MaxActive: 100, MaxQueue: 1, MaxWait: time.Second, Default: Limits{TokensPerMinute: 600}}, nil)
	g, err := c.Admit(ctx, Ticket{Tenant: "b", InputTokens: 500})
	if err != nil {
		t.Fatal(err)
	}
	g.Release()
	_, err = c.Admit(ctx, Ticket{Tenant: "b", InputTokens: 500})
	refusal(t, err, CodeRateLimited, 429)
}

func TestQueueWaitsThenGrants(t *testing.T) {
	c := New(cfg(1, 5, 5*time.Second), nil)
	ctx := context.Background()
	g, _ := c.Admit(ctx, Ticket{Tenant: "a"})
	got := make(chan *Grant)
	go func() {
		g2, err := c.Admit(ctx, Ticket{Tenant: "b"})
		if err != nil {
			t.Error(err)
		}
		got <- g2
	}()
	time.Sleep(20 * time.Millisecond)
	g.Release()
	g2 := <-got
	if g2.Waited <= 0 {
		t.Fatal("the second request did not wait")
	}
	g2.Release()
}

func TestQueueFullAndTimeout(t *testing.T) {
	c := New(cfg(1, 1, 50*time.Millisecond), nil)
	ctx := context.Background()
	g, _ := c.Admit(ctx, Ticket{Tenant: "a"})
	defer g.Release()
	errs := make(chan error)
	go func() { _, err := c.Admit(ctx, Ticket{Tenant: "b"}); errs <- err }()
	time.Sleep(10 * time.Millisecond)
	_, err := c.Admit(ctx, Ticket{Tenant: "c"})
	refusal(t, err, CodeQueueFull, 503)
	refusal(t, <-errs, CodeQueueTimeout, 503)
}

// A request that gives up while waiting frees its place at once.
func TestCancelledWaiterLeaves(t *testing.T) {
	c := New(cfg(1, 1, time.Minute), nil)
	g, _ := c.Admit(context.Background(), Ticket{Tenant: "a"})
	ctx, cancel := context.WithCancel(context.Background())
	errs := make(chan error)
	go func() { _, err := c.Admit(ctx, Ticket{Tenant: "b"}); errs <- err }()
	time.Sleep(10 * time.Millisecond)
	cancel()
	if err := <-errs; !errors.Is(err, context.Canceled) {
		t.Fatalf("got %v", err)
	}
	// Its queue place is free: another request can wait there.
	go func() { _, err := c.Admit(context.Background(), Ticket{Tenant: "c"}); errs <- err }()
	time.Sleep(10 * time.Millisecond)
	g.Release()
	if err := <-errs; err != nil {
		t.Fatalf("the queue place was not freed: %v", err)
	}
}

// Interactive waiters get a freed slot before batch ones; batch never holds more than its share.
func TestInteractiveFirst(t *testing.T) {
	c := New(Config{MaxActive: 2, BatchMaxActive: 1, MaxQueue: 10, MaxWait: time.Minute}, nil)
	ctx := context.Background()
	b1, _ := c.Admit(ctx, Ticket{Tenant: "batch", Class: "batch"})
	i1, _ := c.Admit(ctx, Ticket{Tenant: "i", Class: "interactive"})
	order := make(chan string, 2)
	go func() {
		g, _ := c.Admit(ctx, Ticket{Tenant: "batch2", Class: "batch"})
		order <- "batch"
		g.Release()
	}()
	time.Sleep(10 * time.Millisecond)
	go func() {
		g, _ := c.Admit(ctx, Ticket{Tenant: "i2", Class: "interactive"})
		order <- "interactive"
		time.Sleep(20 * time.Millisecond)
		g.Release()
	}()
	time.Sleep(10 * time.Millisecond)
	i1.Release() // a slot frees: the batch waiter is first in time, but batch holds its share
	if got := <-order; got != "interactive" {
		t.Fatalf("%s got the slot first", got)
	}
	b1.Release()
	if got := <-order; got != "batch" {
		t.Fatalf("then %s", got)
	}
}

func TestHoldBody(t *testing.T) {
	c := New(Config{MaxActive: 1, MaxInFlightBodyBytes: 100}, nil)
	r1, err := c.HoldBody(80)
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.HoldBody(30)
	refusal(t, err, CodeBodiesBusy, 503)
	r1()
	r1()
	r2, err := c.HoldBody(500) // alone, even an oversized body may be read (max_body_bytes bounds it)
	if err != nil || c.BodiesHeld() != 500 {
		t.Fatalf("%v %d", err, c.BodiesHeld())
	}
	r2()
	if c.BodiesHeld() != 0 {
		t.Fatal("not released")
	}
}
