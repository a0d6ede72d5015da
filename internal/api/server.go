package api

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strconv"
	"time"
	"unicode/utf8"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/sucursal/sucursal/internal/chat"
	"github.com/sucursal/sucursal/internal/pipeline"
)

// DefaultMaxBodyBytes is the default request body limit.
const DefaultMaxBodyBytes = 4 << 20

// Config is the HTTP endpoint's part of the edge-agent's configuration (top-level YAML keys).
type Config struct {
	// Listen is the address branch users call; MetricsListen serves /metrics on its own address
	// (empty: on Listen).
	Listen        string `yaml:"listen"`
	MetricsListen string `yaml:"metrics_listen"`
	// MaxBodyBytes limits a request body.
	MaxBodyBytes int64 `yaml:"max_body_bytes"`
	// RequestTimeout bounds a whole request, streaming included (0 = no bound beyond the client's).
	RequestTimeout time.Duration `yaml:"request_timeout"`
	// SlowClientTimeout bounds one write to a client that stopped reading; the request is then
	// cancelled, upstream too (0 = no bound).
	SlowClientTimeout time.Duration `yaml:"slow_client_timeout"`
	// Decode widens the request allow-list by name (the `egress:` section).
	Decode chat.DecodeOptions `yaml:"-"`
}

// DefaultConfig: loopback only, 4 MiB bodies, 10 min per request, 60 s for a client that
// stopped reading.
func DefaultConfig() Config {
	return Config{Listen: "127.0.0.1:8080", MaxBodyBytes: DefaultMaxBodyBytes, RequestTimeout: 10 * time.Minute,
		SlowClientTimeout: 60 * time.Second}
}

// Validate lists every problem at once.
func (c Config) Validate() error {
	var errs []error
	bad := func(format string, a ...any) { errs = append(errs, fmt.Errorf(format, a...)) }
	if _, _, err := net.SplitHostPort(c.Listen); err != nil {
		bad("listen: %q is not host:port", c.Listen)
	}
	if c.MetricsListen != "" {
		if _, _, err := net.SplitHostPort(c.MetricsListen); err != nil {
			bad("metrics_listen: %q is not host:port", c.MetricsListen)
		}
	}
	if c.MaxBodyBytes <= 0 {
		bad("max_body_bytes must be positive")
	}
	if c.SlowClientTimeout < 0 {
		bad("slow_client_timeout must not be negative")
	}
	if c.RequestTimeout < 0 {
		bad("request_timeout must not be negative")
	}
	if err := c.Decode.Validate(); err != nil {
		errs = append(errs, err)
	}
	return errors.Join(errs...)
}

// ModelLister answers GET /v1/models (the DC target's list, later with local models).
type ModelLister interface {
	Models(ctx context.Context) (json.RawMessage, error)
}

// ReadyFunc reports readiness and, when not ready, why.
type ReadyFunc func() (bool, error)

// Server is the HTTP handler.
type Server struct {
	cfg     Config
	chat    pipeline.Handler
	models  ModelLister
	ready   ReadyFunc
	detail  func() any
	metrics http.Handler
	log     *slog.Logger
	m       *metrics
	mux     *http.ServeMux
}

// New builds the handler. metricsHandler may be nil when metrics are served elsewhere.
func New(cfg Config, h pipeline.Handler, models ModelLister, ready ReadyFunc, metricsHandler http.Handler,
	reg prometheus.Registerer, log *slog.Logger) *Server {
	if cfg.MaxBodyBytes <= 0 {
		cfg.MaxBodyBytes = DefaultMaxBodyBytes
	}
	s := &Server{cfg: cfg, chat: h, models: models, ready: ready, metrics: metricsHandler, log: log, m: newMetrics(reg)}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /v1/chat/completions", s.handleChat)
	mux.HandleFunc("GET /v1/models", s.handleModels)
	mux.HandleFunc("GET /healthz", s.handleHealthz)
	mux.HandleFunc("GET /readyz", s.handleReadyz)
	if metricsHandler != nil {
		mux.Handle("GET /metrics", metricsHandler)
	}
	mux.HandleFunc("/v1/chat/completions", methodNotAllowed("POST"))
	mux.HandleFunc("/v1/models", methodNotAllowed("GET"))
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		writeError(w, &chat.Error{Status: http.StatusNotFound, Type: "invalid_request_error", Code: chat.CodeUnknownURL,
			Message: fmt.Sprintf("unknown URL: %s %s", r.Method, sanitizePath(r.URL.Path))})
	})
	s.mux = mux
	return s
}

func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.mux.ServeHTTP(w, r) }

// SetReadyDetail adds a "backends" field to /readyz (the state of every route and breaker).
func (s *Server) SetReadyDetail(f func() any) { s.detail = f }

func methodNotAllowed(allow string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Allow", allow)
		writeError(w, &chat.Error{Status: http.StatusMethodNotAllowed, Type: "invalid_request_error", Code: chat.CodeMethodNotAllowed,
			Message: fmt.Sprintf("%s is not allowed here; use %s", r.Method, allow)})
	}
}

func (s *Server) handleHealthz(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write([]byte(`{"status":"ok"}` + "\n"))
}

func (s *Server) handleReadyz(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	ok, err := s.ready()
	body := map[string]any{"status": "ready", "dc_link": "up"}
	if !ok {
		reason := "down"
		if err != nil {
			reason = err.Error()
		}
		body = map[string]any{"status": "not_ready", "dc_link": "down", "reason": reason}
	}
	if s.detail != nil {
		body["backends"] = s.detail()
	}
	b, _ := json.Marshal(body)
	if !ok {
		w.WriteHeader(http.StatusServiceUnavailable)
	}
	_, _ = w.Write(append(b, '\n'))
}

func (s *Server) handleModels(w http.ResponseWriter, r *http.Request) {
	body, err := s.models.Models(r.Context())
	if err != nil {
		writeError(w, asChatError(err))
		return
	}
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(body)
}

func (s *Server) handleChat(w http.ResponseWriter, r *http.Request) {
	start := time.Now()
	id := newRequestID()
	w.Header().Set("X-Request-Id", id)
	s.m.inflight.Inc()
	defer s.m.inflight.Dec()

	req, cerr := s.readRequest(w, r)
	if cerr != nil {
		s.m.requests.WithLabelValues(cerr.Code).Inc()
		s.log.Info("request refused", "request_id", id, "status", cerr.Status, "code", cerr.Code)
		writeError(w, cerr)
		return
	}
	ctx := r.Context()
	if s.cfg.RequestTimeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, s.cfg.RequestTimeout)
		defer cancel()
	}
	rw := newResponseWriter(w, req.Stream, start, s.m)
	rw.writeTimeout = s.cfg.SlowClientTimeout
	err := s.chat.ServeChat(ctx, &pipeline.Request{ID: id, Received: start, Chat: req}, rw)
	code := "ok"
	switch {
	case err == nil:
		err = rw.finish()
	case r.Context().Err() != nil:
		code = "client_gone"
	case errors.Is(err, context.DeadlineExceeded) && ctx.Err() != nil:
		ce := &chat.Error{Status: http.StatusGatewayTimeout, Type: "api_error", Code: chat.CodeRequestTimeout,
			Message: fmt.Sprintf("the request took longer than the configured %s", s.cfg.RequestTimeout)}
		code = ce.Code
		rw.fail(ce)
	default:
		ce := asChatError(err)
		code = ce.Code
		rw.fail(ce)
	}
	s.m.requests.WithLabelValues(code).Inc()
	s.m.duration.Observe(time.Since(start).Seconds())
	s.log.Info("request served", "request_id", id, "model", req.Model, "stream", req.Stream,
		"messages", len(req.Messages), "body_bytes", r.ContentLength, "code", code, "chunks", rw.chunks,
		"ttft_ms", ms(rw.ttft), "duration_ms", ms(time.Since(start)))
}

// readRequest applies every input check, each with its own error code.
func (s *Server) readRequest(w http.ResponseWriter, r *http.Request) (*chat.Request, *chat.Error) {
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, s.cfg.MaxBodyBytes))
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			return nil, &chat.Error{Status: http.StatusRequestEntityTooLarge, Type: "invalid_request_error", Code: chat.CodeRequestTooLarge,
				Message: fmt.Sprintf("the request body is larger than the limit of %d bytes", s.cfg.MaxBodyBytes)}
		}
		return nil, chat.InvalidRequest(chat.CodeUnreadableBody, "", "could not read the request body")
	}
	if len(bytes.TrimSpace(body)) == 0 {
		return nil, chat.InvalidRequest(chat.CodeInvalidJSON, "", "the request body is empty; send a JSON object")
	}
	// encoding/json would silently replace invalid UTF-8 with U+FFFD and the model would see text
	// the user did not send: refuse it instead.
	if !utf8.Valid(body) {
		return nil, chat.InvalidRequest(chat.CodeInvalidUTF8, "", "the request body is not valid UTF-8")
	}
	// The one place a request is read: strictly, into the allow-listed types (see package chat).
	return chat.DecodeRequest(body, s.cfg.Decode)
}

func asChatError(err error) *chat.Error {
	var ce *chat.Error
	if errors.As(err, &ce) {
		return ce
	}
	return chat.Internal("the edge agent failed to serve the request")
}

func writeError(w http.ResponseWriter, e *chat.Error) {
	h := w.Header()
	h.Set("Content-Type", "application/json")
	if e.RetryAfter > 0 {
		h.Set("Retry-After", strconv.Itoa(int((e.RetryAfter+time.Second-1)/time.Second)))
	}
	w.WriteHeader(e.Status)
	b, _ := json.Marshal(e)
	_, _ = w.Write(append(b, '\n'))
}

func newRequestID() string {
	var b [12]byte
	_, _ = rand.Read(b[:])
	return "req-" + hex.EncodeToString(b[:])
}

func sanitizePath(p string) string {
	if len(p) > 64 {
		p = p[:64] + "…"
	}
	return strconv.QuoteToASCII(p)[1 : len(strconv.QuoteToASCII(p))-1]
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
