import ContinuityKit
import Testing
import TestSupport

@Suite("Credential detector")
struct CredentialDetectorTests {
  struct Positive: CustomStringConvertible, Sendable {
    var name: String
    var text: String
    var kind: CredentialKind
    var line = 1
    var column = 1
    var description: String { name }
  }

  static let positives: [Positive] = [
    Positive(name: "RSA private key block", text: "my key:\n" + FakeSecrets.rsaKey, kind: .privateKey, line: 2, column: 1),
    Positive(name: "OpenSSH private key block", text: FakeSecrets.openSSHKey, kind: .privateKey),
    Positive(name: "AWS access key id (AKIA)", text: "aws \(FakeSecrets.aws) in prod", kind: .awsAccessKeyID, column: 5),
    Positive(name: "AWS session key id (ASIA)", text: FakeSecrets.awsSession, kind: .awsAccessKeyID),
    Positive(name: "GitHub personal token ghp_", text: "use \(FakeSecrets.gitHub)", kind: .gitHubToken, column: 5),
    Positive(name: "GitHub OAuth token gho_", text: FakeSecrets.gitHubOAuth, kind: .gitHubToken),
    Positive(name: "GitHub server token ghs_", text: "(\(FakeSecrets.gitHubServer))", kind: .gitHubToken, column: 2),
    Positive(name: "GitHub fine-grained github_pat_", text: FakeSecrets.gitHubFineGrained, kind: .gitHubToken),
    Positive(name: "GitLab glpat-", text: FakeSecrets.gitLab, kind: .gitLabToken),
    Positive(name: "Slack bot token", text: FakeSecrets.slack, kind: .slackToken),
    Positive(name: "Stripe secret live key", text: FakeSecrets.stripe, kind: .stripeKey),
    Positive(name: "Stripe restricted live key", text: FakeSecrets.stripeRestricted, kind: .stripeKey),
    Positive(name: "Google API key", text: "key=\(FakeSecrets.google)", kind: .googleAPIKey, column: 5),
    Positive(name: "OpenAI-style key", text: FakeSecrets.openAI, kind: .openAIKey),
    Positive(name: "OpenAI-style project key", text: FakeSecrets.openAIProject, kind: .openAIKey),
    Positive(name: "JSON Web Token", text: "Bearer \(FakeSecrets.jwt)", kind: .jsonWebToken, column: 8),
    Positive(name: "password= unquoted with digits", text: "password=hunter22", kind: .secretAssignment),
    Positive(name: "env var with colon and quotes", text: "DB_PASSWORD: \"s3cr3t-Pa55\"", kind: .secretAssignment),
    Positive(name: "JSON client_secret", text: "{\"client_secret\": \"fakefakefake0123\"}", kind: .secretAssignment, column: 3),
    Positive(name: "api_key single-quoted", text: "api_key = 'FAKE0123abcd'", kind: .secretAssignment),
    Positive(name: "camelCase apiKey", text: "let apiKey = \"FAKE0123abcd\"", kind: .secretAssignment, column: 5),
    Positive(name: "token: value", text: "  token: fakeTokenValue123", kind: .secretAssignment, column: 3),
    Positive(name: "SECRET := long passphrase", text: "SECRET := correcthorsebatterystaple", kind: .secretAssignment),
    Positive(name: "token in a URL query", text: "https://cb.test/?token=abc123def456&x=1", kind: .secretAssignment, column: 18),
    Positive(name: "export GITHUB_TOKEN=", text: "export GITHUB_TOKEN=FAKEfake0123", kind: .secretAssignment, column: 8),
    Positive(name: "case-insensitive Password:", text: "Password: Tr0ub4dor&3", kind: .secretAssignment),
    // Review s17 F9: AWS's secret key passed (its documented example spells EXAMPLE, which
    // counted as a placeholder), and so did URL passwords, bearer headers, Hugging Face and npm
    // tokens.
    Positive(
      name: "aws_secret_access_key= (AWS's documented example)", text: "aws_secret_access_key=\(FakeSecrets.awsSecretExample)",
      kind: .awsSecretAccessKey),
    Positive(
      name: "aws_secret_access_key = with spaces", text: "aws_secret_access_key = \(FakeSecrets.awsSecretExample)",
      kind: .awsSecretAccessKey),
    Positive(
      name: "AWS_SECRET_ACCESS_KEY: env style", text: "  AWS_SECRET_ACCESS_KEY: \(FakeSecrets.awsSecretExample)",
      kind: .awsSecretAccessKey, column: 3),
    Positive(
      name: "JSON SecretAccessKey quoted", text: "{\"SecretAccessKey\": \"\(FakeSecrets.awsSecret)\"}",
      kind: .awsSecretAccessKey, column: 3),
    Positive(
      name: "export AWS_SECRET_ACCESS_KEY= any 40-character key", text: "export AWS_SECRET_ACCESS_KEY=\(FakeSecrets.awsSecret)",
      kind: .awsSecretAccessKey, column: 8),
    Positive(
      name: "URL userinfo password", text: "DATABASE_URL is postgres://admin:S3cr3tP4ss@db.example.com:5432/prod",
      kind: .urlPassword, column: 17),
    Positive(name: "URL password, empty user (redis)", text: "redis://:p4ssw0rd-2024@cache.internal:6379", kind: .urlPassword),
    Positive(
      name: "URL password that is a GitHub token", text: "https://x-access-token:\(FakeSecrets.gitHub)@github.com/o/r.git",
      kind: .gitHubToken, column: 24),
    Positive(
      name: "Authorization: Bearer header", text: "Authorization: Bearer abcdef0123456789abcdef0123456789",
      kind: .bearerToken, column: 16),
    Positive(
      name: "lowercase bearer with base64 padding", text: "-H 'authorization: bearer Zm9vYmFyMTIzNDU2Nzg5MGFiY2RlZg=='",
      kind: .bearerToken, column: 20),
    Positive(name: "Hugging Face token", text: "HF_TOKEN \(FakeSecrets.huggingFace)", kind: .huggingFaceToken, column: 10),
    Positive(name: "Hugging Face token, letters only", text: "hf" + "_abcdefghijklmnopqrstuvwxyzABCDEFGH", kind: .huggingFaceToken),
    Positive(name: "npm token", text: "//registry.npmjs.org/:_authToken=\(FakeSecrets.npm)", kind: .npmToken, column: 34),
    Positive(name: "npm token, lowercase and digits", text: "npm" + "_abcdefghijklmnopqrstuvwxyz0123456789", kind: .npmToken),
    // Review 21-a F1: a key with anything before or after the credential word got past.
    Positive(name: "suffix: REDIS_PASSWORD_PROD=", text: "REDIS_PASSWORD_PROD=Tr0ub4dor3", kind: .secretAssignment),
    Positive(name: "suffix: SECRET_KEY_BASE=", text: "SECRET_KEY_BASE=0123456789abcdef0123456789abcdef", kind: .secretAssignment),
    Positive(name: "suffix: GITHUB_TOKEN_CI=", text: "GITHUB_TOKEN_CI=abcdef1234567890abcd", kind: .secretAssignment),
    Positive(name: "suffix: client_secret_prod = \"…\"", text: "client_secret_prod = \"abcdef123456\"", kind: .secretAssignment),
    Positive(name: "digit: password2 = \"…\"", text: "password2 = \"Tr0ub4dor&3\"", kind: .secretAssignment),
    Positive(name: "digit part: db_password_2=", text: "db_password_2=Tr0ub4dor3", kind: .secretAssignment),
    Positive(name: "digit: token1:", text: "token1: abcdef123456", kind: .secretAssignment),
    Positive(name: "no suffix: REDIS_PASSWORD=", text: "REDIS_PASSWORD=Tr0ub4dor3", kind: .secretAssignment),
    Positive(name: "camelCase prefix: authToken", text: "let authToken = \"h7Gk2pQ9xL4m\"", kind: .secretAssignment, column: 5),
    Positive(name: "credential word ending a part: DBPASSWORD", text: "DBPASSWORD=Tr0ub4dor3", kind: .secretAssignment),
    Positive(name: "pair across parts: x-api-key header", text: "x-api-key: 9f8e7d6c5b4a", kind: .secretAssignment),
    Positive(name: "pair in camelCase: privateKeyPassphrase", text: "privateKeyPassphrase: \"Tr0ub4dor&3\"", kind: .secretAssignment),
    Positive(name: "pwd in an ODBC connection string", text: "Server=db01;Uid=sa;Pwd=Tr0ub4dor3;", kind: .secretAssignment, column: 20),
    Positive(
      name: "a credential word after a descriptor: password_reset_token", text: "password_reset_token = \"a81f9c2e77d0\"",
      kind: .secretAssignment),
    Positive(name: "changeme is a weak password, not a placeholder", text: "password = \"changeme\"", kind: .secretAssignment),
    Positive(
      name: "AWS secret key name with a suffix", text: "AWS_SECRET_ACCESS_KEY_PROD=\(FakeSecrets.awsSecret)",
      kind: .awsSecretAccessKey),
  ]

  @Test("true positives: every listed shape is found with its kind and position", arguments: positives)
  func finds(_ c: Positive) throws {
    let f = try #require(CredentialDetector.firstFinding(in: c.text))
    #expect(f.kind == c.kind)
    #expect(f.line == c.line)
    #expect(f.column == c.column)
  }

  struct Negative: CustomStringConvertible, Sendable {
    var name: String
    var text: String
    var description: String { name }
  }

  static let negatives: [Negative] = [
    Negative(name: "password as a word in prose", text: "Remember to rotate the password every 90 days."),
    Negative(name: "password: followed by prose", text: "Reset your password: see the wiki page."),
    Negative(name: "token in code without a literal", text: "let token = try await fetchToken()"),
    Negative(name: "token from a call", text: "token = fetchToken(for: user)"),
    Negative(name: "token from another identifier", text: "self.token = newToken"),
    Negative(name: "max_tokens setting", text: "max_tokens=4096"),
    Negative(name: "tokenizer name", text: "tokenizer: WordPiece"),
    Negative(name: "password hash assignment", text: "password_hash = bcrypt(pw)"),
    Negative(name: "environment placeholder", text: "password: ${DB_PASSWORD}"),
    Negative(name: "angle-bracket placeholder", text: "api_key: <your-api-key>"),
    Negative(name: "your-… placeholder", text: "API_KEY=your_api_key_here"),
    Negative(name: "masked value", text: "password: ********"),
    Negative(name: "numeric token count", text: "token: 1234567890"),
    Negative(name: "comparison, not assignment", text: "if password == confirmation {"),
    Negative(name: "Swift parameter types", text: "func login(password: String, token: String) -> Bool"),
    Negative(name: "typed declaration", text: "let secret: String = try keychain.read()"),
    Negative(name: "JSON schema", text: "\"password\": {\"type\": \"string\"}"),
    Negative(name: "short sk- words", text: "We compared sk-learn with sk-image and sk-video."),
    Negative(name: "long sk- word without digits", text: "sk-abcdefghijklmnopqrstuvwxyzabcdefgh"),
    Negative(name: "sk- inside another word", text: "task-0123456789-force-management-and-planning-meeting"),
    Negative(name: "base64-ish ordinary text", text: "SGVsbG8gd29ybGQsIHRoaXMgaXMganVzdCBvcmRpbmFyeSB0ZXh0Lg=="),
    Negative(name: "a PEM header mentioned without key data", text: "A PEM file starts with -----BEGIN RSA PRIVATE KEY----- and then base64."),
    Negative(name: "AKIA mentioned as a prefix", text: "AKIA is the prefix of AWS access key ids."),
    Negative(name: "AWS-like but 17 characters", text: "AKIAFAKEFAKEFAKE12345"),
    Negative(name: "JWT prefix only", text: "JWTs start with eyJhbGciOi and a dot."),
    Negative(name: "secret: true", text: "secret: true"),
    Negative(name: "quoted prose value", text: "password: \"the one written on the sticky note\""),
    Negative(name: "Swift generics and URLs", text: "let x: Array<User> = [] // https://swift.org/documentation"),
    Negative(name: "plain notes", text: "Use SQLite for the workspace; WAL mode; busy_timeout 15000 ms."),
    Negative(name: "AWS secret key placeholder", text: "aws_secret_access_key = <your secret access key>"),
    Negative(name: "AWS secret key from the environment", text: "aws_secret_access_key=${AWS_SECRET_ACCESS_KEY}"),
    Negative(name: "AWS secret key name as prose", text: "Set AWS_SECRET_ACCESS_KEY: see the team's vault entry."),
    Negative(name: "URL without userinfo", text: "Connect to postgres://localhost/db first."),
    Negative(name: "URL with a user only", text: "clone http://user@host.example/repo.git"),
    Negative(name: "URL with a port and an @ in the path", text: "https://example.com:8443/users/@me?x=1"),
    Negative(name: "URL password placeholder word", text: "postgres://user:password@localhost:5432/app"),
    Negative(name: "URL password from the environment", text: "postgres://app:${DB_PASSWORD}@db/app"),
    Negative(name: "URL password in angle brackets", text: "mysql://root:<password>@127.0.0.1/db"),
    Negative(name: "ssh remote", text: "git@github.com:org/repo.git and ssh://git@github.com:22/org/repo"),
    Negative(name: "prose about bearer tokens", text: "Send the bearer token in the Authorization header; bearers of tokens beware."),
    Negative(name: "bearer header placeholder", text: "Authorization: Bearer <token>"),
    Negative(name: "bearer header from the environment", text: "Authorization: Bearer ${API_TOKEN}"),
    Negative(name: "bearer header, your-token placeholder", text: "Authorization: Bearer YOUR_ACCESS_TOKEN_1234567890"),
    Negative(name: "Bearer followed by words", text: "Bearer authentication is described in RFC 6750 (2012)."),
    Negative(name: "hf_ function names", text: "call hf_hub_download(repo_id) and hf_api.list_models()"),
    Negative(name: "hf_ and a long lowercase identifier", text: "hf" + "_abcdefghijklmnopqrstuvwxyzabcdefgh"),
    Negative(name: "npm_ configuration variables", text: "npm_config_registry=https://registry.npmjs.org npm_package_version=1.2.3"),
    Negative(name: "npm_ and 37 characters", text: "npm" + "_abcdefghijklmnopqrstuvwxyz01234567890"),
    // Review 21-a F1: with prefixes and suffixes allowed, names that describe a credential, and
    // values that are not one, still pass.
    Negative(name: "max_tokens = 4096", text: "max_tokens = 4096"),
    Negative(name: "token_count: 12", text: "token_count: 12"),
    Negative(name: "num_tokens=512", text: "num_tokens=512"),
    Negative(name: "tokenizer = \"bpe\"", text: "tokenizer = \"bpe\""),
    Negative(name: "tokenizer with a long value", text: "tokenizer_name: bert-base-uncased"),
    Negative(name: "password_hint, prose value", text: "password_hint = \"first pet\""),
    Negative(name: "password_hint, one-word value", text: "password_hint: FirstPet99"),
    Negative(name: "passwordHint in camelCase", text: "passwordHint = \"FirstPet99\""),
    Negative(name: "password_min_length", text: "password_min_length=12"),
    Negative(name: "password_reset_url", text: "password_reset_url=https://id.harbor.dev/reset?step=2"),
    Negative(name: "secret_name, a vault reference", text: "secret_name: prod-db-credentials"),
    Negative(name: "token_type: bearer", text: "token_type: bearer"),
    Negative(name: "token_type with a non-trivial value", text: "token_type = \"mac-sha256\""),
    Negative(name: "token_expires_in", text: "token_expires_in: 3600s-max"),
    Negative(name: "password file path", text: "DB_PASSWORD_FILE=/run/secrets/db_password"),
    Negative(name: "password command", text: "password_cmd = \"pass show mail/ann\""),
    Negative(name: "API key header name", text: "API_KEY_HEADER: X-Api-Key-v2"),
    Negative(name: "PWD is the working directory", text: "PWD=/home/ann/projects/harbor"),
    Negative(name: "credentials file path", text: "GOOGLE_APPLICATION_CREDENTIALS=/etc/gcp/key.json"),
    Negative(name: "fetch credentials mode", text: "fetch(url, { credentials: \"same-origin\" })"),
    Negative(name: "auth names a scheme", text: "auth: oauth2-pkce"),
    Negative(name: "secretary is not secret", text: "secretary: ann.lee@harbor.dev"),
    Negative(name: "a date", text: "SECRET_SANTA_DATE: 2024-12-20"),
    Negative(name: "a price", text: "input_token_price=0.000150"),
    Negative(name: "boolean", text: "GITHUB_TOKEN_CI: false"),
    Negative(name: "null", text: "client_secret_prod = null"),
    Negative(name: "none", text: "token1: None"),
    Negative(name: "empty quotes", text: "password2 = \"\""),
    Negative(name: "angle-bracket placeholder with a suffix", text: "GITHUB_TOKEN_CI=<your-token>"),
    Negative(name: "environment placeholder with a suffix", text: "REDIS_PASSWORD_PROD=${REDIS_PASSWORD}"),
    Negative(name: "shell variable", text: "SECRET_KEY_BASE=$SECRET"),
    Negative(name: "xxx placeholder", text: "db_password_2=xxxxxxxx"),
    Negative(name: "masked with ***", text: "token1: ***"),
    Negative(name: "your_password_here", text: "db_password_2=your_password_here"),
    Negative(name: "bracketed special token", text: "mask_token = \"[MASK]\""),
    Negative(name: "quoted prose: not a secret", text: "let token = \"not a secret\""),
    Negative(name: "quoted prose: hello world", text: "let authToken = \"hello world\""),
    Negative(name: "quoted prose: a prompt", text: "let password = \"Enter your password\""),
  ]

  @Test("true negatives: prose, code identifiers and placeholders are not credentials", arguments: negatives)
  func ignores(_ c: Negative) {
    #expect(CredentialDetector.findings(in: c.text).isEmpty, "\(CredentialDetector.findings(in: c.text))")
  }

  struct KeyCase: CustomStringConvertible, Sendable {
    var name: String
    var isCredential: Bool
    var description: String { name }
  }

  static let keys: [KeyCase] = [
    KeyCase(name: "password", isCredential: true),
    KeyCase(name: "REDIS_PASSWORD_PROD", isCredential: true),
    KeyCase(name: "SECRET_KEY_BASE", isCredential: true),
    KeyCase(name: "GITHUB_TOKEN_CI", isCredential: true),
    KeyCase(name: "client_secret_prod", isCredential: true),
    KeyCase(name: "password2", isCredential: true),
    KeyCase(name: "db_password_2", isCredential: true),
    KeyCase(name: "token1", isCredential: true),
    KeyCase(name: "authToken", isCredential: true),
    KeyCase(name: "APIKey", isCredential: true),
    KeyCase(name: "apiKeyProd", isCredential: true),
    KeyCase(name: "x-api-key", isCredential: true),
    KeyCase(name: "spring.datasource.password", isCredential: true),
    KeyCase(name: "OAuth2Token", isCredential: true),
    KeyCase(name: "dbPassword", isCredential: true),
    KeyCase(name: "SecretAccessKey", isCredential: true),
    KeyCase(name: "sshPrivateKey", isCredential: true),
    KeyCase(name: "pwd", isCredential: true),
    KeyCase(name: "tokens", isCredential: false),
    KeyCase(name: "max_tokens", isCredential: false),
    KeyCase(name: "tokenizer", isCredential: false),
    KeyCase(name: "token_count", isCredential: false),
    KeyCase(name: "passwordHint", isCredential: false),
    KeyCase(name: "password_min_length", isCredential: false),
    KeyCase(name: "PASSWORD_RESET_URL", isCredential: false),
    KeyCase(name: "secretName", isCredential: false),
    KeyCase(name: "token_type", isCredential: false),
    KeyCase(name: "passwordHash", isCredential: false),
    KeyCase(name: "AWS_ACCESS_KEY_ID", isCredential: false),
    KeyCase(name: "primary_key", isCredential: false),
    KeyCase(name: "auth", isCredential: false),
    KeyCase(name: "credentials", isCredential: false),
    KeyCase(name: "secretary", isCredential: false),
    KeyCase(name: "bypass", isCredential: false),
    KeyCase(name: "username", isCredential: false),
  ]

  @Test("the key-name rule: a credential word among the parts, nothing after it describing it", arguments: keys)
  func keyNames(_ c: KeyCase) {
    #expect(CredentialDetector.isCredentialKey(c.name) == c.isCredential)
    #expect(CredentialDetector.isCredentialKey(c.name[...]) == c.isCredential, "a Substring reads the same")
  }

  @Test("columns count Characters, lines are 1-based, several findings come in text order")
  func positions() {
    let text = "Notes\nüber \(FakeSecrets.gitHub)\n👨‍👩‍👧 password=hunter22"
    let found = CredentialDetector.findings(in: text)
    #expect(found == [
      CredentialFinding(kind: .gitHubToken, line: 2, column: 6),
      CredentialFinding(kind: .secretAssignment, line: 3, column: 3),
    ])
    #expect(CredentialDetector.findings(in: text, limit: 1).count == 1)
  }

  @Test("the refusal names the field, the kind and line:column, and never echoes the secret")
  func refusalMessage() {
    let error = #expect(throws: ValidationError.self) {
      try CredentialDetector.requireNoCredential(in: "deploy with\n  \(FakeSecrets.stripe)", field: "content")
    }
    #expect(error?.field == "content")
    #expect(
      error?.message
        == "content looks like it holds a credential (Stripe live key at line 2, column 3); it was not stored. Remove the secret")
    #expect(error?.credential == CredentialFinding(kind: .stripeKey, line: 2, column: 3))
    #expect(error?.message.contains("FAKEfake") == false)
  }

  @Test("the refusal offers no override (only the caller knows whether it has one) and can say what was not done")
  func refusalOffersNoOverride() {
    let error = #expect(throws: ValidationError.self) {
      try CredentialDetector.requireNoCredential(
        in: "password=hunter22222", field: "message", consequence: "nothing was stored or run")
    }
    #expect(
      error?.message
        == "message looks like it holds a credential (password or secret assignment at line 1, column 1); "
        + "nothing was stored or run. Remove the secret")
    #expect(error?.credential?.kind == .secretAssignment)
    // Other validation errors are not marked.
    #expect(ValidationError.tooLong("title", limit: 300, actual: 301).credential == nil)
  }
}
