// Differential fixture: tricky force unwraps, implicitly unwrapped types, try! and as!.
// Never compiled (excluded from the test target); it only has to parse.
// TODO: this marker is in a comment. /* try! x! as! Y */
/* block /* nested try! x! */ still comment as! Y */
import Foundation

var a: Int! = nil
let b: [String: Int]! = [:]
var c: (Int, String)!
var d: ((Int) -> Void)!
var e: Array<Array<Int>>!
var f: Dictionary<String, Int?>!
let g: Int!, h: String!
let (p1, q1): (Int!, Int!) = (1, 2)
@IBOutlet weak var label: UILabel!
private(set) var setter: Int!
static var shared: Foo!
func load() -> [AnyHashable: Any]! { nil }
func pair(x: Int!, y: String! = nil) -> (Int, Int)! { nil }
func gen<T: Equatable>(t: T!) -> T! where T: Hashable { t }
func typed() throws(MyError) -> Int! { x! }
func effects() async throws -> Int! { try! await y() }
func escaping(_ block: @escaping (Int!) -> Void, _ value: inout Int!) {}
func defaulted(x: Int = opt!, y: [Int] = [opt!]) {}
struct S<T> {
  var t: T!
  var computed: Int! { return a! }
  var observed: Int! { didSet { print(observed!) } }
  subscript(i: Int) -> T! { t }
  init!(x: Int) { return nil }
  init?(y: Int) { return nil }
  init<U>(u: U!) { self.t = u as! T }
  static func < (l: S, r: S) -> Bool { l.t! < r.t! }
  static func != (l: S, r: S) -> Bool { l.t! != r.t! }
  static prefix func ! (s: S) -> S { s }
}
enum E {
  case one(Int!)
  case two(label: String!, Int)
  case three(x: Int! = nil)
  func f() -> Int! { switch self { case .one(let v): return v!; default: return nil } }
}
class K { var handler: ((Int!) -> String!)? }
typealias Alias = Int!
protocol P { var p: Int! { get }; func m(_ x: Int!) -> Int! }
let fn: @Sendable (Int) -> Int! = { $0 }

func body(dict: [String: Int]?, opt: Int?, any: Any, arr: [Int]?, flag: Bool) throws {
  let x = dict!["a"]!
  let z = try! foo()
  let w = any as! Int
  let v = arr!.first!
  let u = opt! + 1
  let t = opt!==opt
  if !flag && a != b && c !== d {}
  let ok = (!flag)
  guard !(opt ?? false) else { return }
  let s = "\(opt!) and \(dict!["k"]!) and \(f(")"))"
  let r = #"\(opt!) raw \#(opt!) "quoted" "#
  let r2 = ##"\#(opt!) \##(opt!)"##
  let q = """
    \(opt!) multiline try! as! x! // not a comment
    """
  let q2 = #"""
    \(opt!) raw multiline \#(opt!)
    """#
  let closure = { (a: Int!) -> Int! in a }
  let closure2: (Int!) -> Int! = { $0! }
  let closure3 = { (a, b) in a! + b! }
  let tupleInClosure = { (a: opt!, b: 2) }
  let cast = (any as? Int)!
  let kp = \S<Int>.t!
  let kp2 = \S<Int>.t!.description
  let tuple = (a: opt!, b: 2)
  let d2 = [opt!: opt!]
  let tern = flag ? opt! : opt!
  switch opt { case let v?: print(v!); case .none: print(opt!); default: break }
  switch any { case let i as Int where i > opt!: break; default: break }
  for i in arr! where i > opt! {}
  for var j: Int! in [] {}
  guard let m = opt as Int? else { return }
  _ = x!!
  _ = opt?.description!
  foo(label: opt!)
  a = b!
  let g3: Int = { opt! }()
  if let x = any as? Int, x > opt! {}
  let gt = opt! > 1 ? opt! : 0
  let lt = a < b!
  let lt2 = a<b!
  let cmp = a > b! && c < d!
  outer: for k in [1] { print(k, opt!) }
  #if os(Linux) && !DEBUG
  _ = opt!
  #endif
  let `with!bang` = opt!
  let self_ = self!
  let chained = a?.b!.c!.d
  let generic = Array<Int?>(repeating: opt!, count: 1)
  let meta = Int!.self
  let nested = foo(bar(baz(opt!)))
  let arrType: [Int]! = [opt!]
  let optType: Int? = opt!
  let anyType: any P! = nil
  let someValue = opt as! Int? as! Int
  let shifted = 1 << opt!
  let range = 0..<opt!
  let regexLike = #/a"b/#
  let afterRegex = opt!
  var lazyIUO: Int! { get { a! } set { a = newValue! } }
  let capture = { [weak self] (a: Int!) in a! }
  let capture2 = { [x] (a: Int!) -> Int! in a }
  var iife: Int! = { return opt! }()
  let v1: Int! = nil; let w1 = v1!
  repeat { _ = opt! } while opt! > 0
  let sum = any as! Int + opt!
  foo(any as! Int, opt!)
  let dictCast = [any as! String: opt!]
  let ternCast = flag ? any as! Int : opt!
  let coalesce = opt ?? opt!
  if #available(macOS 10, *) { _ = opt! }
  @available(*, deprecated, message: "x!") var z: Int!
  let arrayOfIUO = [Int!]()
  let iuoCast = any as! Int!
  let castTwice = any as Any as! Int
  let x2 = (opt!, opt!)
  let genericIUO = Array<Int!>()
  let genericMember = Dictionary<String, Int!>.Index.self
  let comparisons = a<b! && c>d!
  let attributed = { @MainActor (a: Int!) in a! }
  let arrayOfCasts = x as! [Int]? ?? y!
  let chainCast = x?.y as! Z? ?? w!
  return opt!
}

func multiline(
  a: Int!,
  b: Int! = nil
) -> Int!
  where T: P
{
  a!
}

struct Gen {
  subscript<T>(x: T!) -> T! { x! }
  var getter: Int! {
    return a!
  }
  var getter2: Int! { get throws { a! } }
}

protocol Q {
  associatedtype A: P = Int
  var q: Int! { get set }
}

// Probes: declarations and casts in less common positions.
let v: Int!
  = foo()!
let m: [Int]! = #require(x!)
func f(_ x: Int!) -> Int! { #expect(x! > 1); return x! }
let d = { (a: Int!) throws(E) -> Int in a! }
switch x { case let y as Int: print(y!) }
let e = x as! (Int) -> Int!
let g: (Int) throws -> Int! = h!
extension Foo where T == Int! { func z() { w! } }
let i = cond ? (x as! Int)! : y!
let j = [x!: y!] as! [Int: Int]
let k = x is Int! ? a! : b!
let n = o?[p!]!.q!
let r = s![t!]![u!]

// Probes: protocols, parameter packs, member chains, operators, accessors.
protocol P {
  associatedtype A: Q where A.B == Int!
  func f<T>(_ t: T!) -> T! where T: Q
  subscript<K>(k: K!) -> V! where K: Hashable { get }
}
struct S<each T> {
  var values: (repeat each T)!
  func g(_ x: repeat (each T)!) {}
}
let a = b
  .map { $0! }
  .filter { $0!.isEmpty }!
let (c, d): (Int!, Int) = (e!, f!)
if case .some(let x) = y!, let z = x as? Int { _ = z! }
let h = i
  #if DEBUG
  .debug!
  #endif
let j: some P! = k!
let l: any P! = m!
infix operator !!!: AdditionPrecedence
func !!! (l: Int!, r: Int!) -> Int! { l! + r! }
let n = o !!! p!
precedencegroup G { higherThan: AdditionPrecedence }
class C { deinit { q! } ; init!() { r! } ; convenience init?(s: Int!) { t! } }
let u = { [unowned self] in self.v! }
let w = x.flatMap { y in y! }!
let z: [String: [Int]!]! = [:]
let aa = bb as? [String: Any] ?? cc!
let dd = (ee as! Int?)!
let ff = gg.first { $0.hh! }!
func ii(jj: @autoclosure () -> Int! = kk!) {}
let ll = "\(mm!)" + #"\#(nn!)"# + """
  \(oo!)
  """
let pp = qq?.rr?.ss!.tt!
let uu = vv as Int? ?? ww!
let xx = yy is Int ? zz! : 0
let ab = cd<ef, gh>(ij!)
let kl = mn < op, qr > (st!)

// Probes: catch clauses, casts followed by where, conditions.
do { try f() } catch let e as NSError where e.code! > 0 { g! }
do { try f() } catch let e as E { h! }
func v() -> Int! /* c */ { w! }
let x = { (a: Int!, b) in a }
guard let y = z as? Int, y > a! else { return }
if #available(macOS 14, *), let b = c as? D { e! }
let f = g as! H.Type
let i = j as! (any K)!
