package redact

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"
)

const piiText = "Sr. Juan Pérez García, DNI 12345678Z, tel. 600 123 456, IBAN ES91 2100 0418 4502 0005 1332"

func mustRedact(t testing.TB, s *Session, text string) string {
	t.Helper()
	out, err := s.Redact(context.Background(), text)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestSamePlaceholderAcrossMessages(t *testing.T) {
	r := newTestRedactor(t, DefaultConfig())
	s := r.NewSession(0)
	defer s.Close()
	sys := mustRedact(t, s, "Eres el asistente de la sucursal. El cliente es el Sr. Juan Pérez García.")
	user := mustRedact(t, s, "Juan Pérez García quiere saber el saldo; su DNI es 12345678Z.")
	tool := mustRedact(t, s, `{"dni":"12345678Z","nombre":"Juan Pérez García"}`)
	ph := "@@PERSON-1@@"
	for _, out := range []string{sys, user, tool} {
		if !strings.Contains(out, ph) || strings.Contains(out, "Juan") {
			t.Errorf("want %s and no name in %q", ph, out)
		}
	}
	if strings.Count(user+tool, "@@DNI-1@@") != 2 || strings.Contains(user+tool, "@@DNI-2@@") {
		t.Errorf("the same DNI got different placeholders: %q %q", user, tool)
	}
	// The second message has no cue before the name: only the vault sweep finds it.
	if st := s.Stats(); st.Entities[TypePerson] != 1 || st.Redacted[TypePerson] != 3 {
		t.Errorf("stats = %+v, want 1 person redacted 3 times", st)
	}
}

func TestRehydrateTolerance(t *testing.T) {
	r := newTestRedactor(t, DefaultConfig())
	s := r.NewSession(0)
	defer s.Close()
	mustRedact(t, s, piiText)
	tests := []struct{ answer, want string }{
		{"Hola @@PERSON-1@@.", "Hola Juan Pérez García."},
		{"Hola @@person-1@@.", "Hola Juan Pérez García."},
		{"Hola @@ PERSON - 1 @@.", "Hola Juan Pérez García."},
		{"Hola @@Person_1@@.", "Hola Juan Pérez García."},
		{"DNI: @@DNI-1@@@@PHONE-1@@", "DNI: 12345678Z600 123 456"},
		{"@@PERSON-1@@2", "Juan Pérez García2"},
		{"@@PERSON-01@@ stays", "@@PERSON-01@@ stays"},                         // no leading zeros
		{"@@PERSON-2@@ is invented", "@@PERSON-2@@ is invented"},               // not in the vault
		{"@@PERSON   -1@@ too many spaces", "@@PERSON   -1@@ too many spaces"}, // at most two
		{"@PERSON-1@ single", "@PERSON-1@ single"},
		{"ends @@PERSON-1", "ends Juan Pérez García"}, // end_of_stream: rehydrate
	}
	for _, tt := range tests {
		if got := s.Rehydrate(tt.answer); got != tt.want {
			t.Errorf("Rehydrate(%q) = %q, want %q", tt.answer, got, tt.want)
		}
	}
}

func TestRehydrateJSON(t *testing.T) {
	cfg := DefaultConfig()
	cfg.Deny = []DenyEntry{{Value: `Ana "Nani" López`, Type: TypePerson}}
	s := newTestRedactor(t, cfg).NewSession(0)
	defer s.Close()
	ph := mustRedact(t, s, `Ana "Nani" López`)
	if ph != "@@PERSON-1@@" {
		t.Fatalf("deny entry not redacted: %q", ph)
	}
	got := s.RehydrateJSON(`{"name":"` + ph + `"}`)
	if !strings.HasPrefix(got, `{"name":"`) || strings.Count(got, `"`) != 4+2 || !strings.Contains(got, `\"Nani\"`) {
		t.Errorf("RehydrateJSON = %s: values must be JSON-escaped", got)
	}
}

func TestStreamHoldsOnlyPlaceholderPrefixes(t *testing.T) {
	r := newTestRedactor(t, DefaultConfig())
	s := r.NewSession(0)
	defer s.Close()
	mustRedact(t, s, piiText) // PERSON-1, DNI-1, PHONE-1, IBAN-1
	st := s.NewStream()
	steps := []struct{ in, out string }{
		{"Hola ", "Hola "},
		{"@", ""},
		{"@PER", ""},
		{"SON-1", ""},
		{"@", ""},
		{"@, ", "Juan Pérez García, "},
		{"mail me @ home", "mail me @ home"},
		{" @@PERSON-3", " @@PERSON-3"}, // only PERSON-1 exists: not a prefix of anything known
		{" @@IB", " "},
		{"X-1@@", "@@IBX-1"}, // the trailing "@@" could open a placeholder
		{" @@DNI-1", "@@ "},
		{"0", "@@DNI-10"}, // DNI-10 does not exist
		{" fin @@PHONE-", " fin "},
	}
	for i, step := range steps {
		if got := st.Write(step.in); got != step.out {
			t.Fatalf("step %d: Write(%q) = %q, want %q", i, step.in, got, step.out)
		}
	}
	if got := st.Flush(); got != "@@PHONE-" {
		t.Errorf("Flush() = %q, want the unfinished placeholder as typed (no number: not unique)", got)
	}
}

func TestEndOfStreamPolicy(t *testing.T) {
	for _, tt := range []struct{ policy, held, want string }{
		{EndEmit, "@@PERSON-1", "@@PERSON-1"},
		{EndDrop, "@@PERSON-1", ""},
		{EndRehydrate, "@@PERSON-1", "Juan Pérez García"},
		{EndRehydrate, "@@PERSON-1@", "Juan Pérez García"},
		{EndRehydrate, "@@PERS", "@@PERS"},
	} {
		cfg := DefaultConfig()
		cfg.EndOfStream = tt.policy
		s := newTestRedactor(t, cfg).NewSession(0)
		mustRedact(t, s, piiText)
		st := s.NewStream()
		if got := st.Write("x " + tt.held); got != "x " {
			t.Fatalf("%s: Write = %q", tt.policy, got)
		}
		if got := st.Flush(); got != tt.want {
			t.Errorf("%s: Flush with %q held = %q, want %q", tt.policy, tt.held, got, tt.want)
		}
		s.Close()
	}
}

func TestDrift(t *testing.T) {
	r := newTestRedactor(t, DefaultConfig())
	s := r.NewSession(0)
	mustRedact(t, s, piiText) // 4 entities
	st := s.NewStream()
	// The model keeps PERSON-1 (split across chunks), drops the other three, invents two.
	for _, c := range []string{"Hola @@PER", "SON-1@@, su @@IBAN-7", "@@ y @@JUANITO-2@@ ok"} {
		st.Write(c)
	}
	st.Flush()
	got := s.Stats()
	if got.Dropped != 3 || got.Invented != 2 || got.InventedBy["IBAN"] != 1 || got.InventedBy["OTHER"] != 1 {
		t.Errorf("stats = %+v, want 3 dropped, 2 invented (IBAN and OTHER)", got)
	}
	s.Close()
}

func TestCloseWipesVault(t *testing.T) {
	r := newTestRedactor(t, DefaultConfig())
	s := r.NewSession(0)
	out := mustRedact(t, s, piiText)
	held := make([][]byte, 0)
	for _, e := range s.v.entries {
		held = append(held, e.value)
	}
	s.Close()
	for i, b := range held {
		for _, c := range b {
			if c != 0 {
				t.Fatalf("entry %d not overwritten after Close", i)
			}
		}
	}
	if got := s.Rehydrate(out); got != out {
		t.Errorf("a closed session rehydrated something")
	}
	if _, err := s.Redact(context.Background(), "x"); !errors.Is(err, ErrSessionClosed) {
		t.Errorf("Redact after Close: err = %v, want ErrSessionClosed", err)
	}
}

func TestSessionTTL(t *testing.T) {
	r := newTestRedactor(t, DefaultConfig())
	s := r.NewSession(time.Millisecond)
	defer s.Close()
	for {
		s.mu.Lock()
		closed := s.closed
		s.mu.Unlock()
		if closed {
			break
		}
		time.Sleep(time.Millisecond)
	}
	if _, err := s.Redact(context.Background(), piiText); !errors.Is(err, ErrSessionClosed) {
		t.Errorf("Redact after TTL: err = %v, want ErrSessionClosed", err)
	}
}

func TestLookalikesNeverPullValues(t *testing.T) {
	r := newTestRedactor(t, DefaultConfig())
	s := r.NewSession(0)
	defer s.Close()
	mustRedact(t, s, piiText)
	for _, typed := range []string{
		"@@PERSON-1@@",
		"give me @@person-1@@ please",
		"@@ PERSON _ 1 @@",
		"@@@PERSON-1@@@",
		"@@PERSON-1",
		"PERSON-1@@",
		"x@@DNI-1@@y@@IBAN-1@@z",
		"@@@@@@@@",
	} {
		out := mustRedact(t, s, typed)
		if back := s.Rehydrate(out); back != typed {
			t.Errorf("typed %q came back as %q", typed, back)
		}
		for _, v := range []string{"Juan", "12345678Z", "600 123 456", "ES91"} {
			if strings.Contains(s.Rehydrate(out), v) {
				t.Errorf("typed %q pulled a vault value", typed)
			}
		}
	}
}

func TestAllowDenyCustom(t *testing.T) {
	cfg := DefaultConfig()
	cfg.Allow = []string{"Banco Ejemplo", "900 100 200"}
	cfg.Deny = []DenyEntry{{Value: "Proyecto Fénix", Type: "ORG"}}
	cfg.Custom = []CustomRecognizer{{Name: "expediente", Type: "CASEFILE", Pattern: `EXP-\d{6}`, Score: 0.9}}
	r := newTestRedactor(t, cfg)
	s := r.NewSession(0)
	defer s.Close()
	in := "Banco Ejemplo, línea 900 100 200: el proyecto fénix del expediente EXP-123456 del móvil 600 123 456."
	want := "Banco Ejemplo, línea 900 100 200: el @@ORG-1@@ del expediente @@CASEFILE-1@@ del móvil @@PHONE-1@@."
	if got := mustRedact(t, s, in); got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
}

func TestChecksumPolicy(t *testing.T) {
	const noContext = "Referencia 12345678A pendiente." // wrong DNI letter, no context word
	const withContext = "Mi DNI es 12345678A."
	for _, tt := range []struct {
		policy         string
		noCtx, withCtx bool // redacted?
	}{
		{ChecksumRedact, true, true},
		{ChecksumLower, false, true},
		{ChecksumIgnore, false, false},
	} {
		cfg := DefaultConfig()
		cfg.ChecksumFailure = tt.policy
		s := newTestRedactor(t, cfg).NewSession(0)
		if got := !strings.Contains(mustRedact(t, s, noContext), "12345678A"); got != tt.noCtx {
			t.Errorf("%s without context: redacted=%v, want %v", tt.policy, got, tt.noCtx)
		}
		if got := !strings.Contains(mustRedact(t, s, withContext), "12345678A"); got != tt.withCtx {
			t.Errorf("%s with context: redacted=%v, want %v", tt.policy, got, tt.withCtx)
		}
		s.Close()
	}
}

func TestMatchTimeoutFailsClosed(t *testing.T) {
	cfg := DefaultConfig()
	cfg.MatchTimeout = time.Millisecond
	cfg.Custom = []CustomRecognizer{{Name: "catastrophic", Type: "TEST", Pattern: `(a+)+b`, Score: 1}}
	r := newTestRedactor(t, cfg)
	s := r.NewSession(0)
	defer s.Close()
	secret := strings.Repeat("a", 40) + " 12345678Z"
	out, err := s.Redact(context.Background(), secret)
	if !errors.Is(err, ErrMatchTimeout) {
		t.Fatalf("err = %v, want ErrMatchTimeout", err)
	}
	if out != "" || strings.Contains(err.Error(), "aaaa") || strings.Contains(err.Error(), "12345678Z") {
		t.Fatalf("a timed-out Redact must return nothing and an error without the text; got %q, %v", out, err)
	}
}

// TestConcurrentStreams: choices of one request stream at the same time while the session is
// still redacting (tool results), as the pipeline does with n > 1. Run with -race.
func TestConcurrentStreams(t *testing.T) {
	r := newTestRedactor(t, DefaultConfig())
	s := r.NewSession(0)
	defer s.Close()
	answer := mustRedact(t, s, piiText)
	var wg sync.WaitGroup
	errs := make(chan string, 8)
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			st := s.NewStream()
			var b strings.Builder
			for i := 0; i < len(answer); i += 5 {
				b.WriteString(st.Write(answer[i:min(i+5, len(answer))]))
			}
			b.WriteString(st.Flush())
			if b.String() != piiText {
				errs <- b.String()
			}
		}()
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i := 0; i < 20; i++ {
			if _, err := s.Redact(context.Background(), "tool result for Sra. Ana Ruiz, DNI 12345678Z"); err != nil {
				errs <- err.Error()
			}
		}
	}()
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Errorf("concurrent use: %q", e)
	}
}
