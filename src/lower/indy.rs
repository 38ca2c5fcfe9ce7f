//! Lowering an `invokedynamic` of `LambdaMetafactory` inside a method body: the `new` of the
//! call site's synthetic class (`lambda.rs`) with its captured values.

use cafebabe::bytecode::Opcode;
use cafebabe::constant_pool::InvokeDynamic;

use super::lambda::{Arg, METAFACTORY, check_method};
use super::method::Lowerer;
use crate::Result;
use crate::classfile::lambda::{LambdaSite, LambdaTarget, TargetKind};
use crate::classfile::{JType, Kind, MethodDesc, parse};
use crate::ir::{Expr, FieldRef, Operand, Stmt};

impl Lowerer<'_> {
    /// The lambda class a `LambdaMetafactory` call site describes: `Ok(Err(why))` when it
    /// is another bootstrap method or a lambda a class cannot stand for, an error when the
    /// class file is malformed.
    pub(super) fn lambda_site(
        &mut self,
        op: &Opcode<'_>,
        d: &InvokeDynamic<'_>,
        site: &MethodDesc,
    ) -> Result<std::result::Result<LambdaSite, String>> {
        let index = d.attr_index;
        let Some(b) = self.bootstrap.get(usize::from(index)).cloned() else {
            return Err(
                self.malformed(op, &format!("bootstrap method {index} is not in the BootstrapMethods attribute"))
            );
        };
        if b.class != METAFACTORY || !matches!(b.name.as_str(), "metafactory" | "altMetafactory") {
            return Ok(Err(format!("bootstrap method {}.{}", b.class.replace('/', "."), b.name)));
        }
        let lambda = |why: String| Ok(Err(format!("a lambda or method reference: {why}")));
        let shape = |lw: &Self| lw.malformed(op, "LambdaMetafactory arguments that are not (type, handle, type, ...)");
        let (Some(Arg::Type(sam)), Some(Arg::Handle(h)), Some(Arg::Type(inst))) =
            (b.args.first(), b.args.get(1), b.args.get(2))
        else {
            return Err(shape(self));
        };
        let desc = |lw: &Self, s: &str| parse::parse_method_desc(s, &lw.origin);
        let sam = desc(self, sam)?;
        let inst = desc(self, inst)?;
        let mut methods = vec![sam.clone()];
        let mut markers = Vec::new();
        if b.name == "altMetafactory" {
            let Some(Arg::Int(flags)) = b.args.get(3) else { return Err(shape(self)) };
            let mut k = 4;
            if flags & 1 != 0 {
                markers.push(self.table.intern("java/io/Serializable"));
            }
            for (flag, bridges) in [(2, false), (4, true)] {
                if flags & flag == 0 {
                    continue;
                }
                let Some(Arg::Int(n)) = b.args.get(k) else { return Err(shape(self)) };
                k += 1;
                for _ in 0..*n {
                    match b.args.get(k) {
                        Some(Arg::Class(c)) if !bridges => markers.push(self.table.intern(c)),
                        Some(Arg::Type(t)) if bridges => methods.push(desc(self, t)?),
                        _ => return Err(shape(self)),
                    }
                    k += 1;
                }
            }
        }
        let Some(JType::Class(iface)) = &site.ret else {
            return Err(self.malformed(op, "a lambda call site that does not return an interface"));
        };
        let Some(kind) = h.kind else { return lambda(format!("field method handle {}.{}", h.class, h.name)) };
        if (kind == TargetKind::New) != (h.name == "<init>") {
            return Err(self.malformed(op, &format!("method handle {}.{} of the wrong kind", h.class, h.name)));
        }
        let array = h.class.starts_with('[');
        let owner_name = if array { "java/lang/Object" } else { h.class.as_str() };
        let receiver = match kind {
            TargetKind::Static | TargetKind::New => None,
            _ if array => JType::from_class_or_array(&h.class),
            _ => Some(JType::Class(h.class.clone())),
        };
        let target = LambdaTarget {
            kind,
            owner: self.table.intern(owner_name),
            name: h.name.clone(),
            desc: desc(self, &h.desc)?,
            interface: h.interface,
            receiver,
        };
        for m in &methods {
            if let Some(why) = check_method(self.table, &target, &site.params, m, &inst) {
                return lambda(format!("{why} (target {}.{}{})", h.class.replace('/', "."), h.name, h.desc));
            }
        }
        Ok(Ok(LambdaSite {
            owner: self.owner,
            bootstrap: index,
            name: d.name_and_type.name.to_string(),
            site: site.clone(),
            interface: self.table.intern(iface),
            markers,
            methods,
            target,
            captured: Vec::new(),
        }))
    }

    /// Emits the `new` of the lambda class of `site` and the writes of the captured `args`,
    /// and pushes the new object.
    pub(super) fn new_lambda(&mut self, site: LambdaSite, args: Vec<Operand>) {
        let c = self.table.lambda_class(site);
        let fields: Vec<FieldRef> = match &self.table.class(c).lambda {
            Some(s) => s
                .captured
                .iter()
                .map(|f| {
                    let f = self.table.field(*f);
                    FieldRef { owner: c, name: f.name.clone(), ty: f.ty.clone() }
                })
                .collect(),
            None => Vec::new(),
        };
        // A temporary, not the stack local: a captured operand may be that local.
        let t = self.locals.temp(Kind::Ref);
        self.buf.emit(Stmt::Assign(t, Expr::New(c)));
        for (f, a) in fields.into_iter().zip(args) {
            self.buf.emit(Stmt::PutField(Operand::Local(t), f, a));
        }
        self.buf.push(Operand::Local(t), Kind::Ref);
    }
}
