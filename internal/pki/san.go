package pki

import (
	"errors"
	"fmt"
	"net"
	"strings"
)

// ErrInvalidSAN means a --dc-san value is neither an IP address nor a DNS name.
var ErrInvalidSAN = errors.New("invalid subject alternative name")

// SANs are the names a dc-gateway certificate answers to.
type SANs struct {
	DNS []string
	IPs []net.IP
}

// defaultDCSANs let every edge and test on the DC host itself reach the gateway without extra flags.
var defaultDCSANs = []string{"localhost", "127.0.0.1", "::1"}

// ParseSANs sorts each value into an IP address or a DNS name, drops duplicates (keeping the first
// spelling) and lists every bad value at once so an operator can fix them in one go.
func ParseSANs(values []string) (SANs, error) {
	var s SANs
	var errs []error
	seen := map[string]bool{}
	for _, v := range values {
		if ip := net.ParseIP(v); ip != nil {
			if !seen[ip.String()] {
				seen[ip.String()] = true
				s.IPs = append(s.IPs, ip)
			}
			continue
		}
		name := strings.ToLower(strings.TrimSuffix(v, "."))
		if err := validateDNSName(name); err != nil {
			errs = append(errs, fmt.Errorf("%w %q: %w", ErrInvalidSAN, v, err))
			continue
		}
		if !seen[name] {
			seen[name] = true
			s.DNS = append(s.DNS, name)
		}
	}
	return s, errors.Join(errs...)
}

// validateDNSName accepts host names (letters, digits, hyphens, dot-separated labels) and a single
// leading "*." wildcard, which is what crypto/tls will match against a ServerName.
func validateDNSName(name string) error {
	if name == "" {
		return errors.New("empty")
	}
	if len(name) > 253 {
		return fmt.Errorf("%d bytes long, at most 253 allowed", len(name))
	}
	labels := strings.Split(name, ".")
	for i, l := range labels {
		if i == 0 && l == "*" && len(labels) > 1 {
			continue
		}
		if l == "" || len(l) > 63 {
			return fmt.Errorf("label %d is empty or longer than 63 bytes", i+1)
		}
		if l[0] == '-' || l[len(l)-1] == '-' {
			return fmt.Errorf("label %d starts or ends with '-'", i+1)
		}
		for j := 0; j < len(l); j++ {
			c := l[j]
			if !((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-') {
				return fmt.Errorf("label %d has a byte outside [a-z0-9-]", i+1)
			}
		}
	}
	return nil
}
