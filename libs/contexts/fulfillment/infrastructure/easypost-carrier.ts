import { money } from '#platform/domain/money';
import { CONTENT_TYPES, LabelFileType } from '../domain/label';
import {
  CarrierFailure,
  CarrierGateway,
  CarrierRate,
  Parcel,
  PurchaseRequest,
  PurchasedLabel,
  QuoteRequest,
  ShipTo,
} from '../application/carrier.port';

/** EasyPost's service names and ours (docs/api-decisions.md, Fulfillment, "Packages, labels, insurance and shipping": EasyPost). */
const SERVICES: Record<string, Record<string, string>> = {
  usps: { groundadvantage: 'ground_advantage', priority: 'priority', express: 'priority_express' },
  ups: { ground: 'ground', '2nddayair': '2nd_day_air', nextdayair: 'next_day_air' },
  fedex: { fedex_ground: 'ground', fedex_2_day: '2_day', standard_overnight: 'standard_overnight' },
};

const snake = (s: string) =>
  s
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/[^A-Za-z0-9]+/g, '_')
    .toLowerCase();

/** Our service code for one of EasyPost's (`GroundAdvantage` → `ground_advantage`); unknown names are snake-cased. */
export function serviceCodeOf(carrier: string, easypostService: string): string {
  const key = easypostService.replace(/\s+/g, '').toLowerCase();
  return SERVICES[carrier]?.[key] ?? snake(easypostService);
}

/** EasyPost's service name for ours, when the rate came from EasyPost (the stored rate keeps its id). */
const insuranceEstimateRate = money('0.015');

interface EasyPostRate {
  id: string;
  carrier: string;
  service: string;
  rate: string;
  currency: string;
  delivery_days?: number | null;
  est_delivery_days?: number | null;
  shipment_id?: string;
}

interface EasyPostShipment {
  id: string;
  rates?: EasyPostRate[];
  tracking_code?: string | null;
  selected_rate?: EasyPostRate | null;
  postage_label?: {
    label_url?: string | null;
    label_pdf_url?: string | null;
    label_zpl_url?: string | null;
  } | null;
  tracker?: { public_url?: string | null } | null;
  insurance?: string | null;
  fees?: { type: string; amount: string }[];
  refund_status?: string | null;
  messages?: { carrier?: string; message?: string }[];
}

const ouncesOf = (parcel: Parcel) => (parcel.weightLb ?? money(1)).times(16).toDecimalPlaces(1).toNumber();

const address = (to: ShipTo) => ({
  name: to.name,
  street1: to.lines[0] ?? '',
  street2: to.lines[1] ?? undefined,
  city: to.lines[2] ?? '',
  country: 'US',
});

/**
 * The EasyPost label provider (CARRIER_PROVIDER=easypost): speaks EasyPost's REST API v2 with
 * the API key as the HTTP Basic user name. Quoting creates a shipment (its rates become ours,
 * keeping EasyPost's shipment and rate ids); purchase buys the chosen rate with insurance,
 * converts the label to the requested file type when EasyPost did not return it, and downloads
 * the file; void asks for a refund. EasyPost's 4xx answers are carrier refusals.
 */
export class EasyPostCarrier implements CarrierGateway {
  readonly provider = 'easypost';

  constructor(
    private readonly apiKey: string,
    private readonly baseUrl: string,
    private readonly fromAddress: ShipTo = {
      name: 'Shipping department',
      lines: ['1 Warehouse Way', '', 'Springfield'],
    },
  ) {}

  async quote(request: QuoteRequest): Promise<CarrierRate[]> {
    const shipment = await this.call<EasyPostShipment>('POST', '/shipments', {
      shipment: {
        reference: request.reference,
        to_address: address(request.shipTo),
        from_address: address(this.fromAddress),
        parcel: {
          weight: ouncesOf(request.parcel),
          ...(request.parcel.lengthIn ? { length: request.parcel.lengthIn.toNumber() } : {}),
          ...(request.parcel.widthIn ? { width: request.parcel.widthIn.toNumber() } : {}),
          ...(request.parcel.heightIn ? { height: request.parcel.heightIn.toNumber() } : {}),
        },
        options: { label_format: 'PDF' },
      },
    });
    return (shipment.rates ?? []).map((r) => {
      const carrier = r.carrier.toLowerCase();
      return {
        carrier,
        service: serviceCodeOf(carrier, r.service),
        amount: money(r.rate),
        currency: (r.currency || 'USD').toUpperCase(),
        estimatedDays: r.delivery_days ?? r.est_delivery_days ?? null,
        insuranceFee:
          request.insuredAmount && request.insuredAmount.gt(0)
            ? request.insuredAmount.times(insuranceEstimateRate).toDecimalPlaces(2)
            : money(0),
        providerShipmentId: shipment.id,
        providerRateId: r.id,
      };
    });
  }

  async purchase(request: PurchaseRequest): Promise<PurchasedLabel> {
    const { rate } = request;
    if (!rate.providerShipmentId || !rate.providerRateId)
      throw new CarrierFailure('This rate was not quoted by EasyPost; request new rates.');
    const shipment = await this.call<EasyPostShipment>('POST', `/shipments/${rate.providerShipmentId}/buy`, {
      rate: { id: rate.providerRateId },
      ...(request.insuredAmount ? { insurance: request.insuredAmount.toFixed(2) } : {}),
    });
    if (!shipment.tracking_code) throw new CarrierFailure('EasyPost bought no label for this shipment.');
    // The bought shipment keeps the tracker, fees and insurance; a conversion answers the label only.
    let fileUrl = this.labelUrl(shipment, request.fileType);
    if (!fileUrl) {
      const converted = await this.call<EasyPostShipment>(
        'GET',
        `/shipments/${shipment.id}/label?file_format=${request.fileType === 'ZPLII' ? 'ZPL' : request.fileType}`,
      );
      fileUrl = this.labelUrl(converted, request.fileType);
    }
    if (!fileUrl) throw new CarrierFailure(`EasyPost returned no ${request.fileType} label.`);
    const file = await fetch(fileUrl, { signal: AbortSignal.timeout(15_000) });
    if (!file.ok) throw new Error(`EasyPost label download answered ${file.status}`);
    const insuranceFee = (shipment.fees ?? []).find((f) => f.type === 'InsuranceFee');
    return {
      trackingNumber: shipment.tracking_code!,
      trackingUrl: shipment.tracker?.public_url ?? null,
      amount: money(shipment.selected_rate?.rate ?? rate.amount),
      insuredAmount: shipment.insurance ? money(shipment.insurance) : null,
      insuranceFee: insuranceFee ? money(insuranceFee.amount) : null,
      fileType: request.fileType,
      contentType: CONTENT_TYPES[request.fileType],
      content: Buffer.from(await file.arrayBuffer()),
      drawing: null,
      providerShipmentId: shipment.id,
    };
  }

  async refund(label: { providerShipmentId: string | null }): Promise<'refunded' | 'rejected'> {
    if (!label.providerShipmentId) return 'rejected';
    try {
      const shipment = await this.call<EasyPostShipment>(
        'POST',
        `/shipments/${label.providerShipmentId}/refund`,
      );
      return shipment.refund_status === 'submitted' || shipment.refund_status === 'refunded'
        ? 'refunded'
        : 'rejected';
    } catch (error) {
      if (error instanceof CarrierFailure) return 'rejected';
      throw error;
    }
  }

  private labelUrl(shipment: EasyPostShipment, type: LabelFileType): string | null {
    const label = shipment.postage_label;
    if (!label) return null;
    if (type === 'PDF') return label.label_pdf_url ?? null;
    if (type === 'ZPLII') return label.label_zpl_url ?? null;
    return label.label_url ?? null;
  }

  private async call<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
    const response = await fetch(`${this.baseUrl.replace(/\/$/, '')}${path}`, {
      method,
      headers: {
        Authorization: `Basic ${Buffer.from(`${this.apiKey}:`).toString('base64')}`,
        'Content-Type': 'application/json',
        Accept: 'application/json',
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(15_000),
    });
    const text = await response.text();
    let json: unknown;
    try {
      json = text ? JSON.parse(text) : {};
    } catch {
      throw new Error(`EasyPost answered ${response.status} with a body that is not JSON`);
    }
    if (response.status >= 400 && response.status < 500) {
      const error = (json as { error?: { code?: string; message?: string } }).error;
      throw new CarrierFailure(
        `EasyPost refused the request (${error?.code ?? response.status}): ${error?.message ?? 'no message'}`,
      );
    }
    if (!response.ok) throw new Error(`EasyPost answered ${response.status}`);
    return json as T;
  }
}
