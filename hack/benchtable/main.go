package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
)

func main() {
	failed, err := run(os.Stdin, os.Stdout)
	if err != nil {
		fmt.Fprintln(os.Stderr, "benchtable:", err)
		os.Exit(2)
	}
	if failed {
		os.Exit(1)
	}
}

// run copies in to out line by line, then prints the table; it reports
// whether the input had a failure.
func run(in io.Reader, out io.Writer) (bool, error) {
	r, failed := results{}, false
	sc := bufio.NewScanner(in)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		if _, err := fmt.Fprintln(out, sc.Text()); err != nil {
			return failed, err
		}
		failed = r.add(sc.Text()) || failed
	}
	if err := sc.Err(); err != nil {
		return failed, err
	}
	fmt.Fprintln(out)
	return failed, printTable(out, rows(r))
}
