package cloudinit

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"gopkg.in/yaml.v3"
)

// TestSecretsOnlyWhereTheHostNeedsThem checks every secret appears once,
// in its own 0600 file, and nowhere else: not in runcmd, not in a script,
// not in a header. The deploy password's plaintext appears nowhere.
func TestSecretsOnlyWhereTheHostNeedsThem(t *testing.T) {
	home := map[string]string{
		testToken: EnrollmentTokenPath, testConsumerKey: MachineCredsPath,
		testTokenKey: MachineCredsPath, testTokenSecret: MachineCredsPath,
	}
	for name, p := range policyCases(t) {
		home := home
		if !p.HardwareSync.hasToken() {
			home = map[string]string{testToken: EnrollmentTokenPath}
		}
		t.Run(name, func(t *testing.T) {
			ud := render(t, p)
			if strings.Contains(string(ud), testPassword) {
				t.Fatal("the deploy password's plaintext is in the output")
			}
			got := map[string]string{}
			for _, part := range splitMIME(t, ud) {
				var cfg cloudConfig
				if err := yaml.Unmarshal([]byte(part.Body), &cfg); err != nil {
					t.Fatal(err)
				}
				for secret := range home {
					if where := secretIn(cfg, secret); where != "" {
						got[secret] = where
					}
				}
			}
			if diff := cmp.Diff(home, got); diff != "" {
				t.Errorf("where each secret is (-want +got):\n%s", diff)
			}
			for secret := range home {
				if n := strings.Count(string(ud), secret); n != 1 {
					t.Errorf("secret %q appears %d times, want once", secret, n)
				}
			}
		})
	}
}

// secretIn names the 0600 file holding secret, or says where it leaked.
func secretIn(cfg cloudConfig, secret string) string {
	for _, cmd := range cfg.RunCmd {
		if strings.Contains(strings.Join(cmd, " "), secret) {
			return "runcmd"
		}
	}
	for _, f := range cfg.WriteFiles {
		if !strings.Contains(f.Content, secret) {
			continue
		}
		if f.Permissions != "0600" || strings.HasPrefix(f.Content, "#!") {
			return f.Path + " (mode " + f.Permissions + ")"
		}
		return f.Path
	}
	return ""
}

func TestDeployPasswordHashVerifies(t *testing.T) {
	cfg, _, ok := findPart(t, render(t, baseParams(t)), "10-deploy-user.cfg")
	if !ok || len(cfg.Users) != 2 || cfg.Users[0] != "default" {
		t.Fatalf("users = %#v, want default and the deploy user", cfg.Users)
	}
	u := cfg.Users[1].(map[string]any)
	hash, _ := u["hashed_passwd"].(string)
	fields := strings.Split(hash, "$") // "", "6", salt, digest
	if len(fields) != 4 || fields[1] != "6" {
		t.Fatalf("hashed_passwd %q is not a $6$ hash", hash)
	}
	if again := sha512Crypt([]byte(testPassword), []byte(fields[2]), defaultRounds); again != hash {
		t.Errorf("hash does not verify against the password: %s != %s", again, hash)
	}
	if u["name"] != "hpcadmin" || u["lock_passwd"] != false {
		t.Errorf("deploy user = %v", u)
	}
}
