//! The function form's `fn __tool_start`: reads the parameters out of the
//! arguments (one by one, or through the derived input struct), runs the
//! tool's own checks, and starts the call, at once when it can.

use proc_macro2::{Span, TokenStream};
use quote::{format_ident, quote, quote_spanned};
use syn::Lifetime;
use syn::ext::IdentExt;
use syn::spanned::Spanned;
use syn::{Ident, ReturnType};

use super::{Expansion, field_local};
use crate::ast::Arg;
use crate::attr::Validate;
use crate::codegen::{convert_output, validate};

impl Expansion<'_> {
    /// `fn __tool_start`: reads the arguments and starts the call.
    pub(super) fn start_fn(&self) -> TokenStream {
        let Self {
            p,
            input,
            marker,
            ctx,
            tool_args,
            now,
            bounds,
            ..
        } = self;
        // The run may borrow the context it is given: `'__tool_c`, late
        // bound, so that the function is a `StartWith` for every lifetime.
        let lent = Lifetime::new("'__tool_c", Span::call_site());
        let ctx_param = self
            .tool
            .context()
            .map(|ctx_type| quote!(#ctx: #p::Cow<#lent, #p::ToolContext<#ctx_type>>,));
        let (generics, started_type) = match (self.tool.context(), self.plain.is_none()) {
            (Some(_), true) => (quote!(<#marker, #lent>), quote!(#p::Started<#lent>)),
            (Some(_), false) => (quote!(<#lent>), quote!(#p::Started<#lent>)),
            (None, true) => (quote!(<#marker>), quote!(#p::Started<'static>)),
            (None, false) => (quote!(), quote!(#p::Started<'static>)),
        };
        let read = match self.plain {
            Some(_) => self.read_params(),
            None => {
                let fields = self.tool.named_params().map(|(ident, _)| ident);
                let read = match &self.args.validate {
                    None => quote!(#tool_args.read::<#input<#marker>>()),
                    Some(validate) => {
                        // The tool's own checks, on the struct read, before the gate.
                        let read = format_ident!("__tool_read", span = Span::mixed_site());
                        let check_args = self.check_args(validate, |ident| quote!(#read.#ident));
                        let path = &validate.path;
                        let verdict = quote_spanned!(path.span()=> #path(#(#check_args),*));
                        quote! {
                            #p::read_struct_checked::<#input<#marker>, _>(#tool_args, false, |#read| #verdict)
                        }
                    }
                };
                quote! {
                    let #input { #(#fields,)* .. } = match #read {
                        #p::Result::Ok(input) => input,
                        #p::Result::Err(error) => return #p::Result::Err(error),
                    };
                }
            }
        };
        let started = self.started();
        quote! {
            fn __tool_start #generics(
                #ctx_param
                #tool_args: #p::Arguments<'_>,
            ) -> #p::Result<#started_type, #p::ToolError>
            where
                #(#bounds,)*
            {
                let #now = #tool_args.now();
                #read
                #p::Result::Ok(#started)
            }
        }
    }

    /// Reads the parameters one by one, each into its `Field`, then binds
    /// them by their names.
    fn read_params(&self) -> TokenStream {
        let Self { p, tool_args, .. } = self;
        let (idents, names): (Vec<&Ident>, Vec<String>) = self
            .tool
            .named_params()
            .map(|(ident, _)| (ident, ident.unraw().to_string()))
            .unzip();
        let fields = (0..idents.len()).map(field_local);
        let (lets, slots) = self.fields();
        let expecting = format!("the arguments of tool `{}` as a JSON object", self.name);
        let object = format_ident!("__tool_object", span = Span::mixed_site());
        let key = format_ident!("__tool_key", span = Span::mixed_site());
        let error = format_ident!("__tool_error", span = Span::mixed_site());
        let outcome = format_ident!("__tool_read", span = Span::mixed_site());
        let unknown = quote!(return #p::Result::Err(#object.unknown(#key, &[#(#names),*])));
        // Each key as a constant, each read a call the compiler can see
        // through: the loop is this function's own.
        let each_key = if idents.is_empty() {
            quote! {
                if let #p::Some(#key) = #object.next_key() {
                    #unknown;
                }
            }
        } else {
            let indices = 0..idents.len() as u32;
            quote! {
                while let #p::Some(#key) = #object.next_key() {
                    let #outcome = match #key {
                        #(#names => #object.read(#indices, #slots),)*
                        _ => #unknown,
                    };
                    if let #p::Result::Err(#error) = #outcome {
                        return #p::Result::Err(#error);
                    }
                }
            }
        };
        let tool = self.name;
        let bind = (!idents.is_empty()).then(|| {
            quote! {
                let (#(#p::Some(#idents),)*) = (#(#fields.take(),)*) else {
                    return #p::Result::Err(#p::unread(#tool));
                };
            }
        });
        let Some(validate) = &self.args.validate else {
            return quote! {
                #lets
                let mut #object = #tool_args.object(#expecting);
                #each_key
                if let #p::Result::Err(#error) = #object.finish(&mut [#(#slots),*]) {
                    return #p::Result::Err(#error);
                }
                #bind
            };
        };
        // The tool's own checks, on what was read, before the gate.
        let checks = format_ident!("__tool_checks", span = Span::mixed_site());
        let check_args = self.check_args(validate, |ident| quote!(#ident));
        let path = &validate.path;
        let verdict = quote_spanned!(path.span()=> #path(#(#check_args),*));
        quote! {
            #lets
            let mut #object = #tool_args.object(#expecting);
            #each_key
            let #checks = match #object.finish_unchecked(&mut [#(#slots),*]) {
                #p::Result::Ok(checks) => checks,
                #p::Result::Err(#error) => return #p::Result::Err(#error),
            };
            #bind
            if let #p::Result::Err(#error) = #checks.pass(#verdict) {
                return #p::Result::Err(#error);
            }
        }
    }

    /// What the function named by `validate` is called with
    /// (`validate::function_args`).
    fn check_args(
        &self,
        validate: &Validate,
        binding: impl Fn(&Ident) -> TokenStream,
    ) -> Vec<TokenStream> {
        validate::function_args(self.tool, validate, &self.ctx, binding)
    }

    /// The function's arguments in its order, for calling it: the context
    /// borrowed, each parameter as `param` writes it. (`check` has refused
    /// a receiver and a parameter without a name.)
    fn args_as(&self, param: impl Fn(&Ident) -> TokenStream) -> Vec<TokenStream> {
        let ctx = &self.ctx;
        self.tool
            .args
            .iter()
            .filter_map(|arg| match arg {
                Arg::Context(_) => Some(quote!(&*#ctx)),
                Arg::Param(param_arg) => param_arg.ident().map(&param),
                Arg::Receiver(_) => None,
            })
            .collect()
    }

    /// The `Started` that calls the user's function: at once for a plain
    /// function when the call may, as a future for an `async` one.
    fn started(&self) -> TokenStream {
        let Self {
            p,
            ctx,
            output,
            now,
            ..
        } = self;
        let sig = &self.tool.item.sig;
        let span = sig.ident.span();
        let fn_ident = &sig.ident;
        let call_args = self.args_as(|ident| quote!(#ident));
        let call = quote_spanned!(span=> #fn_ident(#(#call_args),*));
        let return_span = match &sig.output {
            ReturnType::Type(_, ty) => ty.span(),
            ReturnType::Default => span,
        };
        let convert = convert_output(&self.krate, self.name, output, return_span);
        match (sig.asyncness.is_some(), self.tool.context().is_some()) {
            (false, false) => quote! {
                #p::Started::call(#now, move || {
                    let #output = #call;
                    #convert
                })
            },
            (false, true) => quote! {
                #p::Started::call_with(#ctx, #now, move |#ctx| {
                    let #output = #call;
                    #convert
                })
            },
            // The function's own future, its output converted by a plain fn.
            (true, false) => quote! {
                #p::Started::finish(#now, #call, |#output| #convert)
            },
            // A future that holds the context it lends the function: the
            // one the call lent it, or one it owns.
            (true, true) => quote! {{
                #p::Started::wait(#now, async move {
                    let #output = #call.await;
                    #convert
                })
            }},
        }
    }
}
