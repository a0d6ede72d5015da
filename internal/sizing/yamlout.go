package sizing

import (
	"bytes"
	"math"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// Marshal writes the assumptions as a file Load reads back to the same values, every default
// filled in, with header lines as a leading comment (e.g. who wrote it and from what).
func (a Assumptions) Marshal(header ...string) ([]byte, error) {
	return encodeYAML(a, header)
}

// encodeYAML writes numbers as people write them (5000000, not 5e+06) and keeps the rows of the
// rho table on one line each, so that two plans diff line by line.
func encodeYAML(v any, header []string) ([]byte, error) {
	var n yaml.Node
	if err := n.Encode(v); err != nil {
		return nil, err
	}
	tidy(&n)
	if len(header) > 0 {
		n.HeadComment = strings.Join(header, "\n")
	}
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(&n); err != nil {
		return nil, err
	}
	if err := enc.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

func tidy(n *yaml.Node) {
	if n.Kind == yaml.ScalarNode && n.Tag == "!!float" {
		f, err := strconv.ParseFloat(n.Value, 64)
		if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
			return
		}
		if f == math.Trunc(f) && math.Abs(f) < 1e15 {
			n.Value, n.Tag = strconv.FormatInt(int64(f), 10), "!!int"
		} else {
			n.Value = strconv.FormatFloat(f, 'f', -1, 64)
		}
		return
	}
	for i, c := range n.Content {
		if n.Kind == yaml.MappingNode && i%2 == 1 && n.Content[i-1].Value == "rho_table" {
			for _, row := range c.Content {
				row.Style = yaml.FlowStyle
			}
		}
		tidy(c)
	}
}
