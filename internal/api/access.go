package api

import (
	"errors"
	"mime"
	"net"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/sucursal/sucursal/internal/apikey"
	"github.com/sucursal/sucursal/internal/chat"
)

// Access-refusal codes (stable).
const (
	CodeHostNotAllowed   = "host_not_allowed"
	CodeOriginNotAllowed = "origin_not_allowed"
	CodeUnsupportedMedia = "unsupported_media_type"
	CodeMissingAPIKey    = "missing_api_key"
	CodeInvalidAPIKey    = "invalid_api_key"
	CodeAPIKeyRevoked    = "api_key_revoked"
	CodePermissionDenied = "permission_denied"
	CodeKeyCheckBusy     = "auth_busy"
	CodeTooManyEntities  = "too_many_entities"
)

// checkBrowser refuses what a web page could make a browser send: a Host the endpoint does not
// serve (DNS rebinding) and an Origin that is not allowed (another site's page). It answers CORS
// preflights itself. A returned error with Status 0 means "answered already".
func (s *Server) checkBrowser(w http.ResponseWriter, r *http.Request) *chat.Error {
	if !s.hostAllowed(r.Host) {
		return &chat.Error{Status: http.StatusForbidden, Type: "invalid_request_error", Code: CodeHostNotAllowed,
			Message: "this endpoint does not answer that Host name; add it to allowed_hosts if it is the NUC's own"}
	}
	origin := r.Header.Get("Origin")
	if origin == "" {
		return nil
	}
	if !slices.Contains(s.cfg.CORSOrigins, origin) {
		return &chat.Error{Status: http.StatusForbidden, Type: "invalid_request_error", Code: CodeOriginNotAllowed,
			Message: "requests from web pages are refused unless their origin is in cors_origins"}
	}
	h := w.Header()
	h.Set("Access-Control-Allow-Origin", origin)
	h.Add("Vary", "Origin")
	if r.Method == http.MethodOptions {
		h.Set("Access-Control-Allow-Methods", "GET, POST")
		h.Set("Access-Control-Allow-Headers", "Authorization, Content-Type")
		h.Set("Access-Control-Max-Age", "600")
		w.WriteHeader(http.StatusNoContent)
		return &chat.Error{}
	}
	return nil
}

// hostAllowed: localhost names, the listen host and allowed_hosts; on a LAN address with no
// allowed_hosts, any IP literal (DNS rebinding needs a name).
func (s *Server) hostAllowed(hostport string) bool {
	host := hostport
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		host = h
	}
	host = strings.ToLower(strings.TrimSuffix(strings.TrimPrefix(host, "["), "]"))
	if s.hosts[host] || s.hosts[strings.ToLower(hostport)] {
		return true
	}
	return s.anyIP && net.ParseIP(host) != nil
}

// jsonBody refuses a request body that is not declared application/json: browsers send
// text/plain and form types without asking (no CORS preflight).
func jsonBody(r *http.Request) *chat.Error {
	mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if err != nil || mt != "application/json" {
		return &chat.Error{Status: http.StatusUnsupportedMediaType, Type: "invalid_request_error", Code: CodeUnsupportedMedia,
			Message: "send the request body as Content-Type: application/json"}
	}
	return nil
}

func bearer(r *http.Request) string {
	a := r.Header.Get("Authorization")
	if len(a) > 7 && strings.EqualFold(a[:7], "bearer ") {
		return strings.TrimSpace(a[7:])
	}
	return ""
}

// anonymous is who calls when the endpoint has no keys (loopback, or a closed lab network).
var anonymous = apikey.Key{Tenant: "local", Class: apikey.ClassInteractive}

// authorize checks the caller's key and its scope: 401 without a valid key, 403 for a revoked
// key or one without the scope, 503 when too many new keys are being checked at once.
func (s *Server) authorize(r *http.Request, scope string) (apikey.Key, *chat.Error) {
	if s.d.Keys == nil {
		return anonymous, nil
	}
	k, err := s.d.Keys.Verify(r.Context(), bearer(r))
	switch {
	case err == nil:
	case errors.Is(err, apikey.ErrMissing):
		return k, &chat.Error{Status: http.StatusUnauthorized, Type: "authentication_error", Code: CodeMissingAPIKey,
			Message: "this branch endpoint needs an API key: send Authorization: Bearer <key> (ask branch IT for one)"}
	case errors.Is(err, apikey.ErrRevoked):
		return k, &chat.Error{Status: http.StatusForbidden, Type: "authentication_error", Code: CodeAPIKeyRevoked,
			Message: "this API key was revoked; ask branch IT for a new one"}
	case errors.Is(err, apikey.ErrBusy):
		return k, &chat.Error{Status: http.StatusServiceUnavailable, Type: "api_error", Code: CodeKeyCheckBusy,
			Message: "too many new API keys are being checked at once; try again", RetryAfter: time.Second}
	default:
		return k, &chat.Error{Status: http.StatusUnauthorized, Type: "authentication_error", Code: CodeInvalidAPIKey,
			Message: "the API key is not valid for this branch endpoint"}
	}
	if !k.Has(scope) {
		return k, &chat.Error{Status: http.StatusForbidden, Type: "authentication_error", Code: CodePermissionDenied,
			Message: "this API key may not use this endpoint"}
	}
	return k, nil
}
