package chat

import (
	"encoding/json"
	"fmt"
	"net/http"
	"time"
)

// Error is an error a branch user receives, in OpenAI's shape:
// {"error":{"message":…,"type":…,"param":…,"code":…}}. Code is stable: clients and runbooks
// branch on it. Message must never contain prompt text or PII.
type Error struct {
	Status     int           // HTTP status
	Type       string        // invalid_request_error, api_error, …
	Code       string        // stable machine-readable code
	Param      string        // offending parameter, if any
	Message    string        // human-readable, safe to show and log
	RetryAfter time.Duration // > 0 adds a Retry-After header (503, 429)
}

func (e *Error) Error() string { return fmt.Sprintf("%s (%d %s)", e.Message, e.Status, e.Code) }

type errorBody struct {
	Error errorFields `json:"error"`
}

type errorFields struct {
	Message string  `json:"message"`
	Type    string  `json:"type"`
	Param   *string `json:"param"`
	Code    *string `json:"code"`
}

// MarshalJSON renders the OpenAI error envelope.
func (e *Error) MarshalJSON() ([]byte, error) {
	f := errorFields{Message: e.Message, Type: e.Type}
	if e.Param != "" {
		f.Param = &e.Param
	}
	if e.Code != "" {
		f.Code = &e.Code
	}
	return json.Marshal(errorBody{Error: f})
}

// ParseError reads an OpenAI-shaped error body (as vLLM, LiteLLM, Ollama send) into an Error with
// the given status. A body that is not one yields a generic error for that status.
func ParseError(status int, body []byte) *Error {
	var eb struct {
		Error json.RawMessage `json:"error"`
	}
	e := &Error{Status: status, Type: typeForStatus(status), Code: codeForStatus(status)}
	if json.Unmarshal(body, &eb) == nil && len(eb.Error) > 0 {
		var f struct {
			Message string `json:"message"`
			Type    string `json:"type"`
			Param   any    `json:"param"`
			Code    any    `json:"code"`
		}
		if json.Unmarshal(eb.Error, &f) == nil {
			e.Message = f.Message
			if f.Type != "" {
				e.Type = f.Type
			}
			if s, ok := f.Param.(string); ok {
				e.Param = s
			}
			switch c := f.Code.(type) {
			case string:
				if c != "" {
					e.Code = c
				}
			case float64:
				// Some servers put the HTTP status in code; keep our stable string.
			}
		} else {
			// Ollama's native API answers {"error":"…"}.
			var s string
			if json.Unmarshal(eb.Error, &s) == nil {
				e.Message = s
			}
		}
	}
	if e.Message == "" {
		e.Message = fmt.Sprintf("the model server answered %d %s", status, http.StatusText(status))
	}
	return e
}

func typeForStatus(status int) string {
	switch {
	case status == http.StatusNotFound, status == http.StatusBadRequest, status == http.StatusRequestEntityTooLarge,
		status == http.StatusUnprocessableEntity:
		return "invalid_request_error"
	case status == http.StatusTooManyRequests:
		return "rate_limit_error"
	case status == http.StatusUnauthorized, status == http.StatusForbidden:
		return "authentication_error"
	}
	return "api_error"
}

func codeForStatus(status int) string {
	switch status {
	case http.StatusNotFound:
		return "model_not_found"
	case http.StatusBadRequest, http.StatusUnprocessableEntity:
		return "invalid_request"
	case http.StatusTooManyRequests:
		return "rate_limit_exceeded"
	case http.StatusUnauthorized, http.StatusForbidden:
		return "upstream_auth_failed"
	case http.StatusServiceUnavailable:
		return "upstream_unavailable"
	}
	return "upstream_error"
}

// InvalidRequest is a 400 about the client's request.
func InvalidRequest(code, param, msg string) *Error {
	return &Error{Status: http.StatusBadRequest, Type: "invalid_request_error", Code: code, Param: param, Message: msg}
}

// Unavailable is a 503 telling the client when to retry.
func Unavailable(code, msg string, retryAfter time.Duration) *Error {
	return &Error{Status: http.StatusServiceUnavailable, Type: "api_error", Code: code, Message: msg, RetryAfter: retryAfter}
}

// Internal is a 500 for a bug or an unexpected state; msg must be safe to show.
func Internal(msg string) *Error {
	return &Error{Status: http.StatusInternalServerError, Type: "api_error", Code: CodeInternal, Message: msg}
}
