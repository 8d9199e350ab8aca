/** The sales context's public surface: the only file other contexts and apps import. */
export * from './sales-core.module';
export * from './sales-http.module';
export { SalesWorkerModule } from './sales-worker.module';
export * from './application/collections.service';
export * from './application/accounts.service';
export * from './application/sales-orders';
export type { OrderLineInput } from './domain/order';
export * from './application/credit-memos';
export { PENDING_REFUND_GRACE_MS, RefundOutcome } from './application/payment-refunds';
export * from './application/revenue-recognition.service';
export * from './application/tokens';
export * from './domain/account';
export { isConfirmedSalesOrder } from './domain/order';
export { LineTerms, NetAndTax, valueOfUnits } from './domain/revenue-recognition';
export * from './application/order-commitments.port';
export * from './application/purchase-order-receiving.service';
export * from './application/kit-lines';
export * from './application/order-line-facts.service';
export * from './sales.events';
export * from './sales.scopes';

// Testing: test support exported on purpose, for test/ and bench/ only (other contexts and apps
// use the public surface above).
export { PricingPoliciesService } from './application/pricing-policies.service';
export { AccountRepository } from './infrastructure/account.repository';
export { CustomerCreditRepository } from './infrastructure/customer-credit.repository';
export { OrderRepository } from './infrastructure/order.repository';
export { PAYMENT_PROCESSOR, RefundRequest, RefundResult } from './application/ports/payment-processor.port';
