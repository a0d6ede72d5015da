// Command tinygguf writes a tiny deterministic GGUF model (see internal/testmodel) and prints the
// Modelfile to create it with. Used by `make demo` and for poking at a runtime by hand:
//
//	go run ./internal/testmodel/cmd/tinygguf -o tiny.gguf -kind alphabet > Modelfile
//	ollama create tiny -f Modelfile
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/sucursal/sucursal/internal/testmodel"
)

func main() {
	if err := run(os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "tinygguf:", err)
		os.Exit(2)
	}
}

func run(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("tinygguf", flag.ContinueOnError)
	out := fs.String("o", "tiny.gguf", "GGUF file to write")
	kind := fs.String("kind", "alphabet", "alphabet | sentence | fixed")
	trigger := fs.String("trigger", "Hello", "sentence: the word a prompt must end with")
	text := fs.String("text", "", "sentence: the answer's words; fixed: the answer (\\n allowed)")
	marker := fs.String("marker", "\n[verdict]", "fixed: text the template appends after the prompt")
	scale := fs.Float64("scale", 0, "output scale (0 = sharp default; lower = softer logprobs)")
	name := fs.String("name", "", "general.name in the GGUF")
	if err := fs.Parse(args); err != nil {
		return err
	}
	var spec testmodel.Spec
	template := testmodel.PromptTemplate
	switch *kind {
	case "alphabet":
		spec = testmodel.Alphabet()
	case "sentence":
		if *text == "" {
			return errors.New("-kind sentence needs -text")
		}
		spec = testmodel.Sentence(*trigger, strings.Fields(*text)...)
	case "fixed":
		if *text == "" {
			return errors.New("-kind fixed needs -text")
		}
		answer := strings.ReplaceAll(*text, `\n`, "\n")
		spec = testmodel.FixedOutput(*marker, answer)
		template = testmodel.FixedOutputTemplate(*marker)
	default:
		return fmt.Errorf("unknown -kind %q", *kind)
	}
	spec.OutputScale = float32(*scale)
	if *name != "" {
		spec.Name = *name
	}
	if err := testmodel.WriteFile(*out, spec); err != nil {
		return err
	}
	abs, err := filepath.Abs(*out)
	if err != nil {
		return err
	}
	_, err = fmt.Fprint(stdout, testmodel.Modelfile(abs, template))
	return err
}
