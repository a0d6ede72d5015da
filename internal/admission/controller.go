package admission

import (
	"container/list"
	"context"
	"fmt"
	"math"
	"net/http"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"golang.org/x/time/rate"

	"github.com/sucursal/sucursal/internal/chat"
)

// Refusal codes (stable).
const (
	CodeRateLimited   = "rate_limit_exceeded"          // 429: the tenant's requests or tokens per minute
	CodeTooConcurrent = "too_many_concurrent_requests" // 429: the tenant's max_active
	CodeInputTooLong  = "input_too_long"               // 400: the prompt is over max_input_tokens
	CodeQueueFull     = "branch_saturated"             // 503: every slot taken and the queue full
	CodeQueueTimeout  = "queue_timeout"                // 503: waited max_wait without a slot
	CodeBodiesBusy    = "branch_busy"                  // 503: too many request bytes in memory at once
)

// Ticket describes a request asking to enter: who, which class, and how big.
type Ticket struct {
	Tenant string
	Class  string // interactive (default) or batch
	// InputTokens is the estimated size of the prompt; MaxTokens what the request asks for
	// (0: not said).
	InputTokens int
	MaxTokens   int
}

// Grant is an admitted request: Release frees its slot (call it exactly once, when the request
// ends, however it ends); MaxTokens is the output bound it may use (it may be lower than asked).
type Grant struct {
	MaxTokens int
	Waited    time.Duration
	release   func()
}

// Release frees the slot.
func (g *Grant) Release() { g.release() }

// Controller is the branch's admission control. It is safe for concurrent use.
type Controller struct {
	cfg Config
	m   *metrics

	mu          sync.Mutex
	active      int
	batchActive int
	tenants     map[string]*tenant
	queues      [2]*list.List // interactive, batch waiters (*waiter)
	service     time.Duration // EWMA of how long a request holds a slot, for Retry-After
	bodies      int64         // request body bytes held now
	bodiesPeak  int64         // the most held since TakeBodiesPeak
}

type tenant struct {
	active int
	reqs   *rate.Limiter
	toks   *rate.Limiter
}

type waiter struct {
	class int
	ready chan struct{} // closed when granted a slot
}

// New returns a controller with its metrics registered on reg (nil: none).
func New(cfg Config, reg prometheus.Registerer) *Controller {
	if cfg.BatchMaxActive == 0 {
		cfg.BatchMaxActive = max(1, cfg.MaxActive/2)
	}
	c := &Controller{cfg: cfg, m: newMetrics(reg), tenants: map[string]*tenant{}, service: time.Second}
	c.queues[0], c.queues[1] = list.New(), list.New()
	return c
}

func classIndex(class string) int {
	if class == "batch" {
		return 1
	}
	return 0
}

func classLabel(i int) string { return [...]string{"interactive", "batch"}[i] }

// Admit decides whether the request enters: at once, after waiting in the queue, or not at all
// (a *chat.Error: 400, 429 or 503 with Retry-After). A request that gives up while waiting
// (ctx ends) leaves the queue at once.
func (c *Controller) Admit(ctx context.Context, t Ticket) (*Grant, error) {
	lim := c.cfg.limits(t.Tenant)
	cls := classIndex(t.Class)
	if lim.MaxInputTokens > 0 && t.InputTokens > lim.MaxInputTokens {
		c.m.refused.WithLabelValues(CodeInputTooLong, classLabel(cls)).Inc()
		return nil, &chat.Error{Status: http.StatusBadRequest, Type: "invalid_request_error", Code: CodeInputTooLong, Param: "messages",
			Message: fmt.Sprintf("the prompt is about %d tokens; this branch accepts at most %d per request", t.InputTokens, lim.MaxInputTokens)}
	}
	maxTokens := t.MaxTokens
	if lim.MaxOutputTokens > 0 && (maxTokens == 0 || maxTokens > lim.MaxOutputTokens) {
		maxTokens = lim.MaxOutputTokens
	}

	c.mu.Lock()
	tn := c.tenant(t.Tenant, lim)
	now := time.Now()
	if lim.MaxActive > 0 && tn.active >= lim.MaxActive {
		c.mu.Unlock()
		c.m.refused.WithLabelValues(CodeTooConcurrent, classLabel(cls)).Inc()
		return nil, &chat.Error{Status: http.StatusTooManyRequests, Type: "rate_limit_error", Code: CodeTooConcurrent,
			Message:    fmt.Sprintf("this key already has %d requests in progress, its limit; wait for one to finish", lim.MaxActive),
			RetryAfter: c.retryAfterLocked(1)}
	}
	if err := c.spendLocked(tn, t.InputTokens+maxTokens, now); err != nil {
		c.mu.Unlock()
		c.m.refused.WithLabelValues(CodeRateLimited, classLabel(cls)).Inc()
		return nil, err
	}
	tn.active++ // counted while waiting too: a tenant cannot fill the queue past its own limit
	if c.slotFreeLocked(cls) {
		c.takeLocked(cls)
		c.mu.Unlock()
		return c.grant(tn, cls, maxTokens, 0), nil
	}
	q := c.queues[cls]
	if c.queues[0].Len()+c.queues[1].Len() >= c.cfg.MaxQueue {
		tn.active--
		ra := c.retryAfterLocked(c.queues[0].Len() + c.queues[1].Len())
		c.mu.Unlock()
		c.m.refused.WithLabelValues(CodeQueueFull, classLabel(cls)).Inc()
		return nil, &chat.Error{Status: http.StatusServiceUnavailable, Type: "api_error", Code: CodeQueueFull,
			Message: "the branch is serving all it can and its queue is full; try again shortly", RetryAfter: ra}
	}
	w := &waiter{class: cls, ready: make(chan struct{})}
	el := q.PushBack(w)
	c.m.queued.Set(float64(c.queues[0].Len() + c.queues[1].Len()))
	c.mu.Unlock()

	start := time.Now()
	timer := time.NewTimer(c.cfg.MaxWait)
	defer timer.Stop()
	select {
	case <-w.ready:
		return c.grant(tn, cls, maxTokens, time.Since(start)), nil
	case <-ctx.Done():
		if c.abandon(q, el, w, tn) {
			return nil, ctx.Err()
		}
		return c.grant(tn, cls, maxTokens, time.Since(start)), nil // granted as it gave up: the caller releases
	case <-timer.C:
		if !c.abandon(q, el, w, tn) {
			return c.grant(tn, cls, maxTokens, time.Since(start)), nil
		}
		c.mu.Lock()
		ra := c.retryAfterLocked(c.queues[0].Len() + c.queues[1].Len() + 1)
		c.mu.Unlock()
		c.m.refused.WithLabelValues(CodeQueueTimeout, classLabel(cls)).Inc()
		return nil, &chat.Error{Status: http.StatusServiceUnavailable, Type: "api_error", Code: CodeQueueTimeout,
			Message: fmt.Sprintf("the branch is busy: no slot freed within %s; try again shortly", c.cfg.MaxWait), RetryAfter: ra}
	}
}

// abandon takes w out of the queue; false when it was granted a slot meanwhile.
func (c *Controller) abandon(q *list.List, el *list.Element, w *waiter, tn *tenant) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	select {
	case <-w.ready:
		return false
	default:
	}
	q.Remove(el)
	tn.active--
	c.m.queued.Set(float64(c.queues[0].Len() + c.queues[1].Len()))
	return true
}

func (c *Controller) tenant(name string, lim Limits) *tenant {
	tn, ok := c.tenants[name]
	if !ok {
		tn = &tenant{}
		if lim.RequestsPerMinute > 0 {
			tn.reqs = rate.NewLimiter(rate.Limit(float64(lim.RequestsPerMinute)/60), max(1, lim.RequestsPerMinute/6))
		}
		if lim.TokensPerMinute > 0 {
			tn.toks = rate.NewLimiter(rate.Limit(float64(lim.TokensPerMinute)/60), lim.TokensPerMinute)
		}
		c.tenants[name] = tn
	}
	return tn
}

// spendLocked takes one request and n tokens from the tenant's budgets, or says when to retry.
func (c *Controller) spendLocked(tn *tenant, n int, now time.Time) error {
	var r1, r2 *rate.Reservation
	if tn.reqs != nil {
		r1 = tn.reqs.ReserveN(now, 1)
	}
	if tn.toks != nil {
		n = min(n, tn.toks.Burst())
		r2 = tn.toks.ReserveN(now, n)
	}
	wait := time.Duration(0)
	for _, r := range []*rate.Reservation{r1, r2} {
		if r != nil {
			wait = max(wait, r.DelayFrom(now))
		}
	}
	if wait == 0 {
		return nil
	}
	for _, r := range []*rate.Reservation{r1, r2} {
		if r != nil {
			r.CancelAt(now)
		}
	}
	return &chat.Error{Status: http.StatusTooManyRequests, Type: "rate_limit_error", Code: CodeRateLimited,
		Message:    "this key has used its requests or tokens for this minute; retry after the time in Retry-After",
		RetryAfter: max(time.Second, wait)}
}

func (c *Controller) slotFreeLocked(cls int) bool {
	if c.active >= c.cfg.MaxActive {
		return false
	}
	return cls == 0 || c.batchActive < c.cfg.BatchMaxActive
}

func (c *Controller) takeLocked(cls int) {
	c.active++
	if cls == 1 {
		c.batchActive++
	}
	c.m.active.Set(float64(c.active))
}

func (c *Controller) grant(tn *tenant, cls, maxTokens int, waited time.Duration) *Grant {
	c.m.admitted.WithLabelValues(classLabel(cls)).Inc()
	c.m.wait.Observe(waited.Seconds())
	start := time.Now()
	var once sync.Once
	return &Grant{MaxTokens: maxTokens, Waited: waited, release: func() {
		once.Do(func() { c.release(tn, cls, time.Since(start)) })
	}}
}

// release frees a slot and hands it to the next waiter: interactive first, batch while it stays
// within its share.
func (c *Controller) release(tn *tenant, cls int, held time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.active--
	if cls == 1 {
		c.batchActive--
	}
	tn.active--
	c.service = time.Duration(0.9*float64(c.service) + 0.1*float64(held))
	for _, q := range []int{0, 1} {
		for c.queues[q].Len() > 0 && c.slotFreeLocked(q) {
			w := c.queues[q].Remove(c.queues[q].Front()).(*waiter)
			c.takeLocked(q)
			close(w.ready)
		}
	}
	c.m.active.Set(float64(c.active))
	c.m.queued.Set(float64(c.queues[0].Len() + c.queues[1].Len()))
}

// retryAfterLocked estimates when a slot frees for someone behind ahead requests.
func (c *Controller) retryAfterLocked(ahead int) time.Duration {
	d := time.Duration(float64(c.service) * math.Ceil(float64(ahead+1)/float64(c.cfg.MaxActive)))
	return min(max(d, time.Second), time.Minute)
}

// HoldBody reserves n bytes of request bodies in memory, or refuses at once (503 branch_busy):
// the caller reads the body only after this, and releases when the request ends.
func (c *Controller) HoldBody(n int64) (release func(), err error) {
	if c.cfg.MaxInFlightBodyBytes <= 0 {
		return func() {}, nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.bodies > 0 && c.bodies+n > c.cfg.MaxInFlightBodyBytes {
		c.m.refused.WithLabelValues(CodeBodiesBusy, "any").Inc()
		return nil, &chat.Error{Status: http.StatusServiceUnavailable, Type: "api_error", Code: CodeBodiesBusy,
			Message: "the branch is holding as many large requests as its memory allows; try again shortly", RetryAfter: time.Second}
	}
	c.bodies += n
	c.bodiesPeak = max(c.bodiesPeak, c.bodies)
	c.m.bodies.Set(float64(c.bodies))
	var once sync.Once
	return func() {
		once.Do(func() {
			c.mu.Lock()
			c.bodies -= n
			c.m.bodies.Set(float64(c.bodies))
			c.mu.Unlock()
		})
	}, nil
}

// BodiesHeld is the request body bytes held now.
func (c *Controller) BodiesHeld() int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.bodies
}

// TakeBodiesPeak returns the most body bytes held at once since the last call, and resets it.
func (c *Controller) TakeBodiesPeak() int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	p := c.bodiesPeak
	c.bodiesPeak = c.bodies
	return p
}
