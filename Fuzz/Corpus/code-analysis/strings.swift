let a = "force! inside a string // not a comment"
let b = #"raw "quoted" \(x)! try! "#
let c = """
  multiline try! x!
  \(value!)
  """
/* outer /* nested try! */ still comment x! */
let d = optional!.count // TODO: fix
let e = try! load() as! Foo
func f() { if a { if b { if c { if d { if e { print(x!) } } } } } }
let g = ##"""
  raw multiline "#"""
  """##
